package dev.skald.minecraft.appender;

import java.net.URI;

/**
 * The appender's settings, checked. The key is kept here and sent only as the X-API-Key header: it is in no
 * URL, and {@link #toString()} (what log4j's status logger prints for a plugin) leaves it out.
 *
 * @param endpoint Skald's POST /api/logs
 * @param batchSize logs per request, 1 to 1,000 (Skald's largest batch)
 * @param flushIntervalMillis the longest a log waits for a batch to fill
 * @param queueCapacity logs kept in memory while Skald is slow or away; past it the oldest are dropped
 * @param resource the resource of the game's own lines (a plugin's lines carry its logger's name)
 * @param logAddresses send players' IP addresses (off: they are masked in every message)
 * @param shutdownTimeoutMillis how long stopping waits for what is queued to be sent
 */
public record SkaldSettings(URI endpoint, String apiKey, int batchSize, long flushIntervalMillis, int queueCapacity, String resource, boolean logAddresses,
                            long shutdownTimeoutMillis) {
    public static final int MAX_BATCH = 1000;

    public SkaldSettings {
        if (apiKey == null || apiKey.isBlank()) throw new IllegalArgumentException("no API key: set apiKey, or apiKeyEnv to the name of an environment variable holding it");
        if (batchSize < 1 || batchSize > MAX_BATCH) throw new IllegalArgumentException("batchSize must be 1 to " + MAX_BATCH + " (got " + batchSize + ")");
        if (flushIntervalMillis < 10) throw new IllegalArgumentException("flushIntervalMillis must be 10 or more (got " + flushIntervalMillis + ")");
        if (queueCapacity < batchSize) throw new IllegalArgumentException("queueCapacity must be at least batchSize (got " + queueCapacity + ")");
        if (resource == null || resource.isBlank()) resource = "minecraft";
    }

    /**
     * Skald's address (`https://skald.example`, with or without `/api` or `/api/logs`) as the endpoint. A query
     * is refused: a key put there would be written wherever URLs are.
     */
    public static URI endpointOf(String url) {
        if (url == null || url.isBlank()) throw new IllegalArgumentException("no url: set url to Skald's address, https://skald.example");
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("url is not an address: " + redact(url));
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) throw new IllegalArgumentException("url must start with https:// (or http://): " + redact(url));
        if (uri.getRawQuery() != null || uri.getRawUserInfo() != null) throw new IllegalArgumentException("url must be Skald's address without a query or credentials; the key goes in apiKey or apiKeyEnv");
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
        if (!path.endsWith("/api/logs")) path = path.endsWith("/api") ? path + "/logs" : path + "/api/logs";
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + path);
    }

    /** A url as error messages may show it: without query, fragment or credentials. */
    static String redact(String url) {
        String s = url.strip();
        int cut = s.length();
        for (char c : new char[] {'?', '#'}) {
            int at = s.indexOf(c);
            if (at >= 0) cut = Math.min(cut, at);
        }
        s = s.substring(0, cut);
        int at = s.indexOf('@');
        int scheme = s.indexOf("://");
        return at >= 0 && scheme >= 0 && at > scheme ? s.substring(0, scheme + 3) + "***@" + s.substring(at + 1) : s;
    }

    @Override
    public String toString() {
        return "SkaldSettings[endpoint=" + endpoint + ", apiKey=(hidden), batchSize=" + batchSize + ", flushIntervalMillis=" + flushIntervalMillis + ", queueCapacity="
            + queueCapacity + ", resource=" + resource + ", logAddresses=" + logAddresses + ", shutdownTimeoutMillis=" + shutdownTimeoutMillis + "]";
    }
}
