package dev.skald.minecraft.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.skald.minecraft.ThreadsAtOnce;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The appender against a fake Skald in this JVM (the end-to-end run against a real one is test/minecraft-appender.integration.test.ts). */
class SkaldAppenderTest {
    private static final String KEY = "sk_live_unit-test-key-0123456789";
    private final ConcurrentLinkedQueue<String> status = new ConcurrentLinkedQueue<>();
    private final StatusListener listener = new StatusListener() {
        @Override
        public void log(StatusData data) {
            status.add(data.getFormattedStatus() + (data.getThrowable() == null ? "" : " " + data.getThrowable()));
        }

        @Override
        public Level getStatusLevel() {
            return Level.TRACE;
        }

        @Override
        public void close() {
        }
    };
    private FakeSkald skald;
    private final List<SkaldAppender> started = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        skald = new FakeSkald();
        StatusLogger.getLogger().registerListener(listener);
    }

    @AfterEach
    void stop() {
        for (SkaldAppender appender : started) appender.stop(100, TimeUnit.MILLISECONDS);
        skald.close();
        StatusLogger.getLogger().removeListener(listener);
        for (String line : status) assertFalse(line.contains(KEY), "the key in a status line: " + line);
    }

    private SkaldAppender appender(int batchSize, long flushMillis, int capacity) {
        return appender(skald.url(), batchSize, flushMillis, capacity);
    }

    private SkaldAppender appender(String url, int batchSize, long flushMillis, int capacity) {
        SkaldAppender appender = SkaldAppender.newBuilder().setName("test").setUrl(url).setApiKey(KEY).setBatchSize(batchSize).setFlushIntervalMillis(flushMillis)
            .setQueueCapacity(capacity).build();
        appender.start();
        started.add(appender);
        return appender;
    }

    private static LogEvent event(String message) {
        return event(Level.INFO, message, null);
    }

    private static LogEvent event(Level level, String message, Throwable thrown) {
        return Log4jLogEvent.newBuilder().setLoggerName("net.minecraft.server.MinecraftServer").setLevel(level).setMessage(new SimpleMessage(message))
            .setThreadName(Thread.currentThread().getName()).setTimeMillis(System.currentTimeMillis()).setThrown(thrown).build();
    }

    @Test
    void sendsFullBatchesAtOnceAndTheRestAfterTheInterval() throws Exception {
        SkaldAppender appender = appender(100, 400, 10_000);
        for (int i = 0; i < 250; i++) appender.append(event("line " + i));
        List<String> messages = skald.awaitMessages(250, 20_000);
        List<FakeSkald.Request> requests = skald.list();
        assertEquals(List.of(100, 100, 50), requests.stream().map(r -> r.messages().size()).toList());
        for (int i = 0; i < 250; i++) assertEquals("line " + i, messages.get(i));
        for (FakeSkald.Request r : requests) {
            assertEquals("/api/logs", r.path());
            assertNull(r.query(), "nothing in the query string");
            assertEquals(KEY, r.key(), "the key in X-API-Key");
            assertTrue(r.body().startsWith("[{\"message\":"), r.body());
        }
        assertTrue(requests.get(0).body().contains("\"type\":\"General\",\"resource\":\"minecraft\",\"timestamp\":"));
        awaitSent(appender, 250); // the server holds the last batch before the appender has read its answer
    }

    @Test
    void aLoneLogWaitsTheIntervalThenGoes() throws Exception {
        SkaldAppender appender = appender(1000, 1000, 10_000);
        long before = System.nanoTime();
        appender.append(event("Steve joined the game"));
        skald.awaitMessages(1, 10_000);
        long waitedMillis = (skald.list().get(0).atNanos() - before) / 1_000_000;
        assertTrue(waitedMillis >= 900, "sent after " + waitedMillis + " ms, before the 1 s interval");
        assertTrue(skald.list().get(0).body().contains("\"type\":\"Join\""));
    }

    @Test
    void retriesAfterTheRetryAfterOf429And503() throws Exception {
        skald.script.add(new FakeSkald.Answer(429, "{\"error\":\"Log limit reached\",\"retryAfter\":1}", null));
        skald.script.add(new FakeSkald.Answer(503, "{\"error\":\"Service unavailable\",\"retryAfter\":2}", null));
        SkaldAppender appender = appender(10, 50, 100);
        for (int i = 0; i < 3; i++) appender.append(event("kept " + i));
        skald.awaitRequests(3, 20_000);
        List<FakeSkald.Request> requests = skald.list();
        assertEquals(requests.get(0).body(), requests.get(1).body(), "the same logs again");
        assertEquals(requests.get(0).body(), requests.get(2).body());
        long afterFirst = (requests.get(1).atNanos() - requests.get(0).atNanos()) / 1_000_000;
        long afterSecond = (requests.get(2).atNanos() - requests.get(1).atNanos()) / 1_000_000;
        assertTrue(afterFirst >= 950, "429 retryAfter 1 s, sent again after " + afterFirst + " ms");
        assertTrue(afterSecond >= 1950, "503 retryAfter 2 s, sent again after " + afterSecond + " ms");
        awaitSent(appender, 3);
        assertTrue(status.stream().anyMatch(s -> s.contains("Skald answered 429 (Log limit reached); sending the 3 logs again in 1 s")), String.join("\n", status));
        assertTrue(status.stream().anyMatch(s -> s.contains("Skald answered 503")));
    }

    @Test
    void aFullQueueDropsTheOldestCountsThemAndNeverBlocksTheLoggingThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        skald.script.add(new FakeSkald.Answer(201, "{\"ids\":[]}", release));
        SkaldAppender appender = appender(10, 50, 50);
        for (int i = 0; i < 10; i++) appender.append(event("first " + i));
        skald.awaitRequests(1, 10_000);
        // Skald holds the first batch: 200 more logs are appended without waiting for it.
        for (int i = 0; i < 200; i++) appender.append(event("more " + i));
        assertEquals(1, release.getCount(), "the appends returned while the request was still held");
        assertEquals(50, appender.queuedCount());
        assertEquals(150, appender.droppedCount());
        release.countDown();
        List<String> messages = skald.awaitMessages(10 + 1 + 50, 20_000);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) expected.add("first " + i);
        expected.add("[skald] queue full (50 logs): dropped the 150 oldest");
        for (int i = 150; i < 200; i++) expected.add("more " + i);
        assertEquals(expected, messages);
        assertTrue(status.stream().anyMatch(s -> s.contains("queue full (50 logs): dropped the 150 oldest")));
    }

    @Test
    void stoppingWhileSkaldHoldsTheAnswerSaysTheBatchWasNotSent() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        skald.script.add(new FakeSkald.Answer(201, "{\"ids\":[]}", release));
        SkaldAppender appender = appender(10, 50, 100);
        for (int i = 0; i < 3; i++) appender.append(event("held " + i));
        skald.awaitRequests(1, 10_000);
        assertEquals(0, appender.queuedCount(), "the batch left the queue");
        // The answer never comes within the stop's wait: the three logs are neither queued nor sent.
        appender.stop(100, TimeUnit.MILLISECONDS);
        release.countDown();
        assertEquals(0, appender.sentCount());
        assertTrue(status.stream().anyMatch(s -> s.contains("stopped with 3 logs not sent")), String.join("\n", status));
    }

    @Test
    void eightLoggingThreadsLoseAndRepeatNothing() throws Exception {
        SkaldAppender appender = appender(1000, 100, 100_000);
        int threads = 8;
        int perThread = 5_000;
        ThreadsAtOnce.run(threads, perThread, null, (id, i) -> appender.append(event("t" + id + " " + i)));
        List<String> messages = skald.awaitMessages(threads * perThread, 60_000);
        assertEquals(threads * perThread, messages.size());
        int[] next = new int[threads];
        for (String message : messages) {
            String[] parts = message.substring(1).split(" ");
            int id = Integer.parseInt(parts[0]);
            assertEquals(next[id], Integer.parseInt(parts[1]), "thread " + id + "'s logs in order, each once");
            next[id]++;
        }
        for (int n : next) assertEquals(perThread, n);
        assertTrue(skald.list().stream().allMatch(r -> r.messages().size() <= 1000));
        assertEquals(0, appender.droppedCount());
    }

    @Test
    void aRefusedLogIsDroppedAndTheOthersSentAgain() throws Exception {
        skald.script.add(new FakeSkald.Answer(400, "{\"error\":\"Invalid field '[1].metadata': too deep\",\"field\":\"[1].metadata\"}", null));
        SkaldAppender appender = appender(10, 50, 100);
        for (int i = 0; i < 3; i++) appender.append(event("log " + i));
        skald.awaitRequests(2, 10_000);
        assertEquals(List.of("log 0", "log 2"), skald.list().get(1).messages());
        awaitSent(appender, 2);
        assertEquals(1, appender.refusedCount());
    }

    @Test
    void theKeyIsNeverPrinted() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        SkaldAppender down = appender("http://127.0.0.1:" + closedPort, 10, 20, 100);
        down.append(event(Level.ERROR, "boom", new IllegalStateException("failure")));
        skald.script.add(new FakeSkald.Answer(401, "{\"error\":\"Invalid API key\"}", null));
        skald.script.add(new FakeSkald.Answer(400, "{\"error\":\"Invalid field '[0].message': too long\",\"field\":\"[0].message\"}", null));
        SkaldAppender refused = appender(10, 20, 100);
        refused.append(event("refused"));
        skald.awaitRequests(1, 10_000);
        long until = System.currentTimeMillis() + 10_000;
        // Both warnings come from sender threads: the fake Skald counts the 401's request before the appender reads
        // its answer and warns, so the test polls for each line rather than for the request alone.
        while ((status.stream().noneMatch(s -> s.contains("unreachable")) || status.stream().noneMatch(s -> s.contains("the API key is refused")))
            && System.currentTimeMillis() < until) Thread.sleep(20);
        assertTrue(status.stream().anyMatch(s -> s.contains("Skald is unreachable (ConnectException)")), String.join("\n", status));
        assertTrue(status.stream().anyMatch(s -> s.contains("the API key is refused")), String.join("\n", status));
        for (Object printed : List.of(down, refused, down.settings(), SkaldAppender.newBuilder().setApiKey(KEY).setUrl(skald.url()))) {
            assertFalse(printed.toString().contains(KEY), printed.toString());
        }
        IllegalArgumentException inQuery = assertThrows(IllegalArgumentException.class,
            () -> SkaldAppender.newBuilder().setUrl("https://skald.example/api/logs?apiKey=" + KEY).setApiKey(KEY).buildOrThrow("x"));
        assertFalse(inQuery.getMessage().contains(KEY), inQuery.getMessage());
        IllegalArgumentException noEnv = assertThrows(IllegalArgumentException.class, () -> SkaldAppender.newBuilder().setUrl(skald.url()).setApiKeyEnv("SKALD_TEST_UNSET_VARIABLE").buildOrThrow("x"));
        assertEquals("the environment variable SKALD_TEST_UNSET_VARIABLE (apiKeyEnv) is not set", noEnv.getMessage());
    }

    @Test
    void configuredInLog4j2XmlWithTheKeyHidden() throws Exception {
        System.setProperty("skald.test.url", skald.url());
        System.setProperty("skald.test.key", KEY);
        LoggerContext context = Configurator.initialize("xml-test", getClass().getClassLoader(), getClass().getResource("/log4j2-skald-test.xml").toURI());
        try {
            SkaldAppender appender = context.getConfiguration().getAppender("Skald");
            assertEquals(200, appender.settings().batchSize());
            Logger server = context.getLogger("net.minecraft.server.MinecraftServer");
            server.info("Steve joined the game");
            server.debug("below the appender's level");
            context.getLogger("MyPlugin").warn("[MyPlugin] careful");
            List<String> messages = skald.awaitMessages(2, 10_000);
            assertEquals(List.of("Steve joined the game", "[MyPlugin] careful"), messages);
            String body = skald.list().get(0).body();
            assertTrue(body.contains("\"resource\":\"MyPlugin\""), body);
            assertTrue(body.contains("\"level\":\"warn\",\"type\":\"Warning\""), body);
        } finally {
            Configurator.shutdown(context);
        }
        assertTrue(status.stream().anyMatch(s -> s.contains("apiKey")), "log4j printed the plugin's attributes (with the key masked)");
    }

    private static void awaitSent(SkaldAppender appender, long count) throws InterruptedException {
        long until = System.currentTimeMillis() + 10_000;
        while (appender.sentCount() < count && System.currentTimeMillis() < until) Thread.sleep(10);
        assertEquals(count, appender.sentCount());
    }

}
