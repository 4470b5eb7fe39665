package dev.skald.minecraft.appender;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Skald for the appender's unit tests: records each POST and answers from a script (then 201). Binds 127.0.0.1 port 0. */
final class FakeSkald implements AutoCloseable {
    record Request(long atNanos, String path, String query, String key, String body) {
        /** The top-level messages of the batch, in order. */
        List<String> messages() {
            List<String> out = new ArrayList<>();
            Matcher m = MESSAGE.matcher(body);
            while (m.find()) out.add(m.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
            return out;
        }
    }

    record Answer(int status, String body, CountDownLatch holdUntil) {
    }

    private static final Pattern MESSAGE = Pattern.compile("\\{\"message\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    private final HttpServer server;
    final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<Answer> script = new ConcurrentLinkedQueue<>();

    FakeSkald() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(System.nanoTime(), exchange.getRequestURI().getPath(), exchange.getRequestURI().getRawQuery(),
                exchange.getRequestHeaders().getFirst("X-API-Key"), body));
            Answer answer = script.poll();
            if (answer != null && answer.holdUntil != null) {
                try {
                    answer.holdUntil.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = answer == null ? 201 : answer.status;
            byte[] out = (answer == null ? "{\"ids\":[]}" : answer.body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> list() {
        return new ArrayList<>(requests);
    }

    List<String> allMessages() {
        List<String> out = new ArrayList<>();
        for (Request r : requests) out.addAll(r.messages());
        return out;
    }

    /** Polls until `count` messages arrived (the sender is asynchronous by design). */
    List<String> awaitMessages(int count, long timeoutMillis) throws InterruptedException {
        long until = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < until) {
            List<String> all = allMessages();
            if (all.size() >= count) return all;
            Thread.sleep(20);
        }
        throw new AssertionError("expected " + count + " messages, got " + allMessages().size());
    }

    void awaitRequests(int count, long timeoutMillis) throws InterruptedException {
        long until = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < until) {
            if (requests.size() >= count) return;
            Thread.sleep(10);
        }
        throw new AssertionError("expected " + count + " requests, got " + requests.size());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
