package dev.skald.minecraft.parse;

import java.util.Map;

/**
 * A console line as Skald stores it.
 *
 * @param type Skald's log type (Join, Chat, Death, ...; General for a line no parser knows)
 * @param level Skald's level: info, warn, error, fatal or debug
 * @param message the line (addresses masked unless configured)
 * @param metadata what the line says, as JSON-ready maps, lists, strings and numbers
 */
public record ParsedLog(String type, String level, String message, Map<String, Object> metadata) {
}
