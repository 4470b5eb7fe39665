package dev.skald.minecraft.appender;

/**
 * What the logging thread keeps of a log event: taken at once (the message is formatted there, its
 * parameters may change afterwards), parsed later on the sender thread.
 *
 * @param level log4j's level name (INFO, WARN, ...)
 * @param thrown the event's exception, or null (read on the sender thread: a thrown exception no longer changes)
 */
public record LogEntry(long timeMillis, String level, String logger, String thread, String message, Throwable thrown) {
}
