package dev.skald.minecraft;

import dev.skald.minecraft.appender.SkaldAppender;
import dev.skald.minecraft.parse.ConsoleLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;

/**
 * Drives the appender as a server would, for test/minecraft-appender.integration.test.ts: log4j configured
 * from driver-log4j2.xml (url and settings as system properties, the key from the environment variable
 * SKALD_API_KEY through apiKeyEnv), loggers named as the game names them. Prints each status line as
 * `STATUS ...`, and `RESULT {json}` at the end. Scenarios: console, burst, quota, queue, threads (see each method).
 */
public final class SkaldDriver {
    private SkaldDriver() {
    }

    public static void main(String[] args) throws Exception {
        StatusLogger.getLogger().registerListener(new StatusListener() {
            @Override
            public void log(StatusData data) {
                System.out.println("STATUS " + data.getFormattedStatus());
            }

            @Override
            public Level getStatusLevel() {
                return Level.INFO;
            }

            @Override
            public void close() {
            }
        });
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        SkaldAppender appender = context.getConfiguration().getAppender("Skald");
        if (appender == null) throw new IllegalStateException("driver-log4j2.xml declared no started Skald appender");
        Map<String, Object> result = new LinkedHashMap<>();
        switch (args[0]) {
            case "console" -> console();
            case "burst" -> burst(Integer.parseInt(System.getProperty("skald.count", "2500")));
            case "quota" -> quota(appender, result);
            case "queue" -> queue(appender);
            case "threads" -> threads(Integer.parseInt(System.getProperty("skald.threads", "8")), Integer.parseInt(System.getProperty("skald.perThread", "100")));
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
        if (!args[0].equals("quota")) awaitSent(appender, Long.parseLong(System.getProperty("skald.expect", "0")));
        result.put("sent", appender.sentCount());
        result.put("requests", appender.requestCount());
        result.put("dropped", appender.droppedCount());
        result.put("queued", appender.queuedCount());
        LogManager.shutdown(context);
        System.out.println("RESULT " + dev.skald.minecraft.appender.Json.write(result));
    }

    /** The vanilla and Paper console lines of the parser tests, logged as the game logs them, then a plugin's error. */
    private static void console() throws IOException {
        Logger game = LogManager.getLogger("net.minecraft.server.MinecraftServer");
        for (String resource : new String[] {"/vanilla-console.txt", "/paper-console.txt"}) {
            try (InputStream in = SkaldDriver.class.getResourceAsStream(resource);
                 BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    ConsoleLine cut = ConsoleLine.of(line);
                    game.log(Level.valueOf(cut.level()), cut.message());
                }
            }
        }
        LogManager.getLogger("Essentials").error("Could not pass event PlayerJoinEvent to Essentials v2.20.1", new IllegalStateException("kit not found: starter"));
    }

    private static void burst(int count) {
        Logger game = LogManager.getLogger("net.minecraft.server.MinecraftServer");
        for (int i = 0; i < count; i++) game.info("burst {}", i);
    }

    /** Three logs to a server whose quota is spent: the answer is a 429; the logs stay queued until stopping gives up. */
    private static void quota(SkaldAppender appender, Map<String, Object> result) throws InterruptedException {
        Logger game = LogManager.getLogger("net.minecraft.server.MinecraftServer");
        for (int i = 0; i < 3; i++) game.info("over quota {}", i);
        long until = System.currentTimeMillis() + 30_000;
        // The 429 answered, not only the request sent: on a loaded machine the answer can take longer than the watch below.
        while (appender.answerCount() < 1 && System.currentTimeMillis() < until) Thread.sleep(20);
        // Long enough for a wrong client to have sent again at once.
        Thread.sleep(1_500);
        result.put("queuedDuringWait", appender.queuedCount());
        result.put("requestsDuringWait", appender.requestCount());
    }

    /**
     * 10 logs go as one batch, which the test's proxy holds unanswered; 200 more are logged meanwhile into a
     * queue of 50 (printed: APPENDED ...); the proxy then answers, and the queue drains.
     */
    private static void queue(SkaldAppender appender) throws InterruptedException {
        Logger game = LogManager.getLogger("net.minecraft.server.MinecraftServer");
        for (int i = 0; i < 10; i++) game.info("first {}", i);
        long until = System.currentTimeMillis() + 30_000;
        while (appender.requestCount() < 1 && System.currentTimeMillis() < until) Thread.sleep(20);
        long started = System.nanoTime();
        for (int i = 0; i < 200; i++) game.info("more {}", i);
        long appendMicros = (System.nanoTime() - started) / 1000;
        System.out.println("APPENDED dropped=" + appender.droppedCount() + " queued=" + appender.queuedCount() + " sent=" + appender.sentCount() + " micros=" + appendMicros);
        System.out.flush();
    }

    /** `threads` threads log `perThread` lines each at once (`t<thread> <n>`), as a server's tick, chunk and plugin threads do. */
    private static void threads(int threads, int perThread) throws InterruptedException {
        Logger game = LogManager.getLogger("net.minecraft.server.MinecraftServer");
        ThreadsAtOnce.run(threads, perThread, "Worker-Main-", (id, i) -> game.info("t{} {}", id, i));
    }

    private static void awaitSent(SkaldAppender appender, long count) throws InterruptedException {
        long until = System.currentTimeMillis() + 60_000;
        while (appender.sentCount() < count && System.currentTimeMillis() < until) Thread.sleep(20);
    }
}
