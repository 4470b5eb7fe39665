package dev.skald.minecraft.appender;

import dev.skald.minecraft.parse.ConsoleParser;
import dev.skald.minecraft.parse.ParsedLog;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The daemon thread that sends: takes a batch from the queue, parses it, POSTs it as one JSON array and
 * keeps it until Skald accepted it. 429 and 503 wait the answer's `retryAfter` (its body; else the
 * Retry-After header; else 5 s) and send the same logs again; no answer waits 1, 2, 4 ... 60 s; 401 and 403
 * keep the logs and try again each minute (the queue's bound then drops the oldest); 400 drops the one log
 * Skald names (the batch's others go again) or the batch; 413 halves the batch. Messages go to `status`
 * (log4j's status logger), never with the key.
 */
final class SkaldSender implements Runnable {
    static final long MAX_BACKOFF_MILLIS = 60_000;
    static final long DEFAULT_RETRY_MILLIS = 5_000;
    static final long AUTH_RETRY_MILLIS = 60_000;
    static final int MAX_MESSAGE = 10_000;
    static final int MAX_METADATA = 16_384;
    private static final Pattern BATCH_FIELD = Pattern.compile("^\\[(\\d+)\\]");
    /** Names the HttpClient's threads: the appender ignores their log events (it would send its own sending). */
    static final String THREAD_PREFIX = "Skald-";

    private final SkaldSettings settings;
    private final LogQueue queue;
    private final ConsoleParser parser;
    private final Consumer<String> status;
    private final HttpClient client;
    private final ExecutorService httpExecutor;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong answers = new AtomicLong();
    private volatile long lost;
    /** The logs of the batch being delivered: out of the queue, not yet accepted or refused. */
    private volatile int holding;
    /** After a refused key or suspended server, the next 201 says that sending works again. */
    private boolean warnedAuth;

    SkaldSender(SkaldSettings settings, LogQueue queue, ConsoleParser parser, Consumer<String> status) {
        this.settings = settings;
        this.queue = queue;
        this.parser = parser;
        this.status = status;
        AtomicInteger threads = new AtomicInteger();
        this.httpExecutor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, THREAD_PREFIX + "http-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).executor(httpExecutor).build();
    }

    long sent() {
        return sent.get();
    }

    long refused() {
        return refused.get();
    }

    long requests() {
        return requests.get();
    }

    /** HTTP answers received (any status). */
    long answers() {
        return answers.get();
    }

    /** Logs still queued or in flight when stopping gave up. */
    long lost() {
        return lost;
    }

    /** Logs of the batch under way (taken from the queue, not yet accepted or refused). */
    int holding() {
        return holding;
    }

    @Override
    public void run() {
        try {
            while (true) {
                List<LogEntry> entries = queue.takeBatch();
                if (entries.isEmpty()) return;
                List<String> logs = new ArrayList<>(entries.size() + 1);
                long dropped = queue.takeDropped();
                if (dropped > 0) {
                    status.accept("queue full (" + settings.queueCapacity() + " logs): dropped the " + dropped + " oldest");
                    logs.add(droppedNotice(dropped));
                }
                for (LogEntry entry : entries) logs.add(encode(entry));
                holding = logs.size();
                boolean delivered = deliver(logs);
                holding = 0;
                if (!delivered) {
                    lost += logs.size() + queue.size();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            httpExecutor.shutdownNow();
        }
    }

    /** A log saying how many logs a full queue dropped (sent with the next batch). */
    private String droppedNotice(long dropped) {
        Map<String, Object> log = new LinkedHashMap<>();
        log.put("message", "[skald] queue full (" + settings.queueCapacity() + " logs): dropped the " + dropped + " oldest");
        log.put("level", "warn");
        log.put("type", "SkaldQueue");
        log.put("resource", "skald");
        log.put("timestamp", System.currentTimeMillis());
        log.put("metadata", Map.of("dropped", dropped));
        return Json.write(log);
    }

    /** One log as the JSON object Skald takes, within Skald's limits (a longer message is cut and says so). */
    String encode(LogEntry entry) {
        ParsedLog parsed = parser.parse(entry.level(), entry.logger(), entry.thread(), entry.message(), entry.thrown());
        Map<String, Object> metadata = new LinkedHashMap<>(parsed.metadata());
        String message = parsed.message();
        if (message.length() > MAX_MESSAGE) {
            metadata.put("messageTruncatedFrom", message.length());
            message = message.substring(0, MAX_MESSAGE);
            if (Character.isHighSurrogate(message.charAt(MAX_MESSAGE - 1))) message = message.substring(0, MAX_MESSAGE - 1);
        }
        String metadataJson = Json.write(metadata);
        if (metadataJson.length() > MAX_METADATA) {
            // Only a huge exception or chat text gets here: keep what fits the limit for certain.
            Map<String, Object> smaller = new LinkedHashMap<>();
            for (String key : new String[] {"player", "logger", "thread"}) if (metadata.containsKey(key)) smaller.put(key, metadata.get(key));
            smaller.put("metadataTruncated", true);
            metadataJson = Json.write(smaller);
        }
        StringBuilder out = new StringBuilder(128 + message.length() + metadataJson.length());
        out.append("{\"message\":");
        Json.write(message, out);
        out.append(",\"level\":");
        Json.write(parsed.level(), out);
        out.append(",\"type\":");
        Json.write(parsed.type(), out);
        out.append(",\"resource\":");
        Json.write(ConsoleParser.resourceOf(entry.logger(), settings.resource()), out);
        out.append(",\"timestamp\":").append(entry.timeMillis());
        if (!metadata.isEmpty()) out.append(",\"metadata\":").append(metadataJson);
        out.append('}');
        return out.toString();
    }

    /** Sends until Skald accepted or refused every log; false when stopping ran out of time first. */
    private boolean deliver(List<String> logs) throws InterruptedException {
        long backoff = 1_000;
        List<String> pending = logs;
        while (!pending.isEmpty()) {
            HttpResponse<String> response;
            try {
                response = post(pending);
            } catch (IOException e) {
                // The exception names the host at most: no header, so never the key.
                status.accept("Skald is unreachable (" + e.getClass().getSimpleName() + "); " + pending.size() + " logs wait, next try in " + backoff / 1000 + " s");
                if (!pause(backoff)) return false;
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                continue;
            }
            int code = response.statusCode();
            String body = response.body();
            if (code >= 200 && code < 300) {
                sent.addAndGet(pending.size());
                if (warnedAuth) status.accept("Skald accepts the key again");
                warnedAuth = false;
                return true;
            }
            if (code == 429 || code == 503) {
                long wait = retryMillis(response);
                String why = Json.error(body);
                status.accept("Skald answered " + code + (why == null ? "" : " (" + why + ")") + "; sending the " + pending.size() + " logs again in " + wait / 1000 + " s");
                if (!pause(wait)) return false;
                continue;
            }
            if (code == 400) {
                String field = Json.field(body);
                Matcher m = field == null ? null : BATCH_FIELD.matcher(field);
                if (m != null && m.find() && pending.size() > 1 && Integer.parseInt(m.group(1)) < pending.size()) {
                    int index = Integer.parseInt(m.group(1));
                    status.accept("Skald refused a log (" + Json.error(body) + "); dropped it, sending the others");
                    pending = new ArrayList<>(pending);
                    pending.remove(index);
                    refused.incrementAndGet();
                    continue;
                }
                status.accept("Skald refused " + pending.size() + " logs (" + Json.error(body) + "); dropped them");
                refused.addAndGet(pending.size());
                return true;
            }
            if (code == 413 && pending.size() > 1) {
                int half = pending.size() / 2;
                if (!deliver(new ArrayList<>(pending.subList(0, half)))) return false;
                pending = new ArrayList<>(pending.subList(half, pending.size()));
                continue;
            }
            if (code == 401 || code == 403) {
                if (!warnedAuth) status.accept("Skald answered " + code + " (" + (code == 401 ? "the API key is refused: check apiKey" : "the server is suspended") + "); logs wait, next try in 60 s");
                warnedAuth = true;
                if (!pause(AUTH_RETRY_MILLIS)) return false;
                continue;
            }
            if (code == 413) {
                status.accept("Skald refused a log as too large; dropped it");
                refused.addAndGet(pending.size());
                return true;
            }
            status.accept("Skald answered " + code + "; " + pending.size() + " logs wait, next try in " + backoff / 1000 + " s");
            if (!pause(backoff)) return false;
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
        }
        return true;
    }

    private HttpResponse<String> post(List<String> logs) throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder(logs.size() * 200);
        body.append('[');
        for (int i = 0; i < logs.size(); i++) {
            if (i > 0) body.append(',');
            body.append(logs.get(i));
        }
        body.append(']');
        HttpRequest request = HttpRequest.newBuilder(settings.endpoint())
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("X-API-Key", settings.apiKey())
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
            .build();
        requests.incrementAndGet();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        answers.incrementAndGet();
        return response;
    }

    /** The wait a 429 or 503 asks for: the body's retryAfter (FiveM and this client read it there), else the header, bounded to 1 s .. 1 h. */
    static long retryMillis(HttpResponse<String> response) {
        double seconds = Json.retryAfter(response.body());
        if (seconds < 0) {
            try {
                seconds = response.headers().firstValue("Retry-After").map(Double::parseDouble).orElse(-1.0);
            } catch (NumberFormatException e) {
                seconds = -1;
            }
        }
        if (seconds < 0) return DEFAULT_RETRY_MILLIS;
        return Math.max(1_000, Math.min(3_600_000, Math.round(seconds * 1000)));
    }

    /**
     * Waits before trying again. While stopping, only if the wait ends before the shutdown deadline; false
     * when it cannot (the logs are then given up: a server shutting down cannot wait an hour for a quota).
     */
    private boolean pause(long millis) throws InterruptedException {
        long until = System.currentTimeMillis() + millis;
        if (shutdownDeadline == 0 && !queue.sleep(millis)) return true;
        // Stopping (before or during the wait): wait the rest only if it ends before the deadline.
        long left = until - System.currentTimeMillis();
        if (left <= 0) return true;
        if (System.currentTimeMillis() + left > shutdownDeadline) return false;
        Thread.sleep(left);
        return true;
    }

    private volatile long shutdownDeadline;

    /** Stopping: send what is queued until `deadlineMillis` (epoch), then give up. */
    void stopBy(long deadlineMillis) {
        shutdownDeadline = deadlineMillis;
        queue.close();
    }
}
