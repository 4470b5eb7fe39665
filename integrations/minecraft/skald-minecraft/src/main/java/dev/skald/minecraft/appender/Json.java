package dev.skald.minecraft.appender;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON this integration writes (a batch of logs) and the two numbers and strings it reads from Skald's
 * answers. Hand-written: the jar must run inside any Minecraft server, whose JSON library (Gson, Jackson or
 * none) differs from one server to the next.
 */
public final class Json {
    private static final Pattern RETRY_AFTER = Pattern.compile("\"retryAfter\"\\s*:\\s*(\\d+(?:\\.\\d+)?)");
    private static final Pattern FIELD = Pattern.compile("\"field\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern ERROR = Pattern.compile("\"error\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private Json() {
    }

    /** Strings, numbers, booleans, null, maps with string keys and lists, at any depth. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    public static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isFinite(d)) out.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
            else out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                string(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(',');
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            string(value.toString(), out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // Control characters, and lone surrogates (a message cut mid-pair), as escapes: valid JSON either way.
                    if (c < 0x20 || (Character.isSurrogate(c) && !validPair(s, i))) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }

    private static boolean validPair(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    /** The `retryAfter` seconds of a 429 or 503 body, or -1. */
    public static double retryAfter(String body) {
        Matcher m = RETRY_AFTER.matcher(body == null ? "" : body);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    /** The `field` of a 400 body (`[12].level`), or null. */
    public static String field(String body) {
        Matcher m = FIELD.matcher(body == null ? "" : body);
        return m.find() ? unescape(m.group(1)) : null;
    }

    /** The `error` sentence of an answer, or null. */
    public static String error(String body) {
        Matcher m = ERROR.matcher(body == null ? "" : body);
        return m.find() ? unescape(m.group(1)) : null;
    }

    private static String unescape(String s) {
        return s.replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
