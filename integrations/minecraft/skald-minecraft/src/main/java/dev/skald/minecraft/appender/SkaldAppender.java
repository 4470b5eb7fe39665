package dev.skald.minecraft.appender;

import dev.skald.minecraft.parse.ConsoleParser;
import dev.skald.minecraft.parse.PlayerDirectory;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;

/**
 * Sends the server's log events to Skald (POST /api/logs, the key in the X-API-Key header). append() only
 * formats the message and queues it: parsing, batching (up to batchSize logs, or flushIntervalMillis after
 * the first) and HTTP happen on one daemon thread, so a logging thread (the server's tick) never waits for
 * Skald. In log4j2.xml:
 *
 * <pre>{@code
 * <Skald name="Skald" url="https://skald.example" apiKeyEnv="SKALD_API_KEY" level="INFO"/>
 * }</pre>
 *
 * From code: {@link #newBuilder()} ... {@code build()}, then {@link #attach(SkaldAppender)}.
 */
@Plugin(name = SkaldAppender.PLUGIN_NAME, category = Core.CATEGORY_NAME, elementType = Appender.ELEMENT_TYPE, printObject = true)
public final class SkaldAppender extends AbstractAppender {
    public static final String PLUGIN_NAME = "Skald";

    private final SkaldSettings settings;
    private final Level threshold;
    private final LogQueue queue;
    private final SkaldSender sender;
    private final Thread senderThread;

    private SkaldAppender(String name, Filter filter, boolean ignoreExceptions, Property[] properties, SkaldSettings settings, Level threshold) {
        super(name, filter, null, ignoreExceptions, properties);
        this.settings = settings;
        this.threshold = threshold;
        this.queue = new LogQueue(settings.queueCapacity(), settings.batchSize(), settings.flushIntervalMillis());
        this.sender = new SkaldSender(settings, queue, new ConsoleParser(PlayerDirectory.shared(), settings.logAddresses()), message -> LOGGER.warn("Skald appender {}: {}", name, message));
        this.senderThread = new Thread(sender, SkaldSender.THREAD_PREFIX + "sender-" + name);
        senderThread.setDaemon(true);
    }

    @PluginBuilderFactory
    public static Builder newBuilder() {
        return new Builder();
    }

    @Override
    public void start() {
        super.start();
        if (!senderThread.isAlive()) senderThread.start();
    }

    @Override
    public void append(LogEvent event) {
        if (!event.getLevel().isMoreSpecificThan(threshold)) return;
        // The sender's own threads (the HTTP client's included) log nothing to Skald: no log about sending a log.
        String thread = event.getThreadName();
        if (thread != null && thread.startsWith(SkaldSender.THREAD_PREFIX)) return;
        String message = event.getMessage() == null ? "" : event.getMessage().getFormattedMessage();
        queue.add(new LogEntry(event.getTimeMillis(), event.getLevel().name(), event.getLoggerName(), thread, message, event.getThrown()));
    }

    @Override
    public boolean stop(long timeout, TimeUnit timeUnit) {
        setStopping();
        boolean stopped = super.stop(timeout, timeUnit, false);
        long wait = timeout > 0 ? Math.min(timeUnit.toMillis(timeout), settings.shutdownTimeoutMillis()) : settings.shutdownTimeoutMillis();
        sender.stopBy(System.currentTimeMillis() + wait);
        try {
            senderThread.join(wait + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // A sender still running past the wait (an answer not back yet) holds its batch outside the queue: those are not sent either.
        long lost = sender.lost() + (senderThread.isAlive() ? queue.size() + sender.holding() : 0);
        if (lost > 0) LOGGER.warn("Skald appender {}: stopped with {} logs not sent", getName(), lost);
        setStopped();
        return stopped;
    }

    /** Logs Skald accepted. */
    public long sentCount() {
        return sender.sent();
    }

    /** Logs a full queue dropped (the oldest). */
    public long droppedCount() {
        return queue.droppedTotal();
    }

    /** Logs Skald refused as invalid (400), dropped. */
    public long refusedCount() {
        return sender.refused();
    }

    /** HTTP requests made (each a batch). */
    public long requestCount() {
        return sender.requests();
    }

    /** HTTP answers received (any status). */
    public long answerCount() {
        return sender.answers();
    }

    /** Logs waiting to be sent. */
    public int queuedCount() {
        return queue.size();
    }

    public SkaldSettings settings() {
        return settings;
    }

    /**
     * Adds a started appender to the root logger of the server's log4j context (the context of the class
     * loader that loaded log4j, which is the server's, not a plugin's), so it gets every log event.
     */
    public static void attach(SkaldAppender appender) {
        LoggerContext context = serverContext();
        Configuration config = context.getConfiguration();
        if (!appender.isStarted()) appender.start();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
    }

    /** Removes an appender {@link #attach} added, then stops it (sending what is queued, up to shutdownTimeoutMillis). */
    public static void detach(SkaldAppender appender) {
        LoggerContext context = serverContext();
        Configuration config = context.getConfiguration();
        config.getRootLogger().removeAppender(appender.getName());
        config.getAppenders().remove(appender.getName());
        context.updateLoggers();
        appender.stop(0, TimeUnit.MILLISECONDS);
    }

    private static LoggerContext serverContext() {
        return (LoggerContext) LogManager.getContext(LogManager.class.getClassLoader(), false);
    }

    @Override
    public String toString() {
        return "SkaldAppender[name=" + getName() + ", " + settings + ", level=" + threshold + "]";
    }

    /** log4j2.xml's attributes (and the builder from code). The key is marked sensitive: status logging shows it as stars. */
    public static final class Builder extends AbstractAppender.Builder<Builder> implements org.apache.logging.log4j.core.util.Builder<SkaldAppender> {
        @PluginBuilderAttribute
        private String url;
        @PluginBuilderAttribute(sensitive = true)
        private String apiKey;
        @PluginBuilderAttribute
        private String apiKeyEnv;
        @PluginBuilderAttribute
        private int batchSize = SkaldSettings.MAX_BATCH;
        @PluginBuilderAttribute
        private long flushIntervalMillis = 1_000;
        @PluginBuilderAttribute
        private int queueCapacity = 10_000;
        @PluginBuilderAttribute
        private String level = "INFO";
        @PluginBuilderAttribute
        private String resource = "minecraft";
        @PluginBuilderAttribute
        private boolean logAddresses;
        @PluginBuilderAttribute
        private long shutdownTimeoutMillis = 5_000;

        public Builder setUrl(String url) {
            this.url = url;
            return this;
        }

        public Builder setApiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        public Builder setApiKeyEnv(String apiKeyEnv) {
            this.apiKeyEnv = apiKeyEnv;
            return this;
        }

        public Builder setBatchSize(int batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        public Builder setFlushIntervalMillis(long flushIntervalMillis) {
            this.flushIntervalMillis = flushIntervalMillis;
            return this;
        }

        public Builder setQueueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        public Builder setLevel(String level) {
            this.level = level;
            return this;
        }

        public Builder setResource(String resource) {
            this.resource = resource;
            return this;
        }

        public Builder setLogAddresses(boolean logAddresses) {
            this.logAddresses = logAddresses;
            return this;
        }

        public Builder setShutdownTimeoutMillis(long shutdownTimeoutMillis) {
            this.shutdownTimeoutMillis = shutdownTimeoutMillis;
            return this;
        }

        /** The appender, or null with the reason on log4j's status logger (log4j's way for a plugin that cannot start). */
        @Override
        public SkaldAppender build() {
            String name = getName() == null ? PLUGIN_NAME : getName();
            try {
                return buildOrThrow(name);
            } catch (IllegalArgumentException e) {
                LOGGER.error("Skald appender {}: {}", name, e.getMessage());
                return null;
            }
        }

        /** The appender, or IllegalArgumentException saying what is wrong (never with the key). */
        public SkaldAppender buildOrThrow(String name) {
            String key = apiKey;
            if ((key == null || key.isBlank()) && apiKeyEnv != null && !apiKeyEnv.isBlank()) {
                key = System.getenv(apiKeyEnv.strip());
                if (key == null || key.isBlank()) throw new IllegalArgumentException("the environment variable " + apiKeyEnv.strip() + " (apiKeyEnv) is not set");
            }
            Level threshold = Level.toLevel(level, null);
            if (threshold == null) throw new IllegalArgumentException("level must be TRACE, DEBUG, INFO, WARN, ERROR or FATAL (got " + level + ")");
            SkaldSettings settings = new SkaldSettings(SkaldSettings.endpointOf(url), key == null ? null : key.strip(), batchSize, flushIntervalMillis, queueCapacity, resource,
                logAddresses, shutdownTimeoutMillis);
            return new SkaldAppender(name, getFilter(), isIgnoreExceptions(), getPropertyArray(), settings, threshold);
        }

        @Override
        public String toString() {
            return "SkaldAppender.Builder[url=" + (url == null ? null : SkaldSettings.redact(url)) + ", apiKey=" + (apiKey == null ? "(none)" : "(hidden)") + ", apiKeyEnv=" + apiKeyEnv + "]";
        }
    }
}
