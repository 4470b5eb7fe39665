package dev.skald.minecraft.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line of the server console or latest.log, cut into time, thread, level and message. Vanilla prints
 * `[12:34:56] [Server thread/INFO]: message`; Paper, Purpur and Folia print `[12:34:56 INFO]: message`
 * (a plugin's lines add `[PluginName] ` to the message). A line without either prefix is its own message.
 */
public record ConsoleLine(String time, String thread, String level, String message) {
    private static final Pattern VANILLA = Pattern.compile("^\\[(\\d{2}:\\d{2}:\\d{2})\\] \\[([^\\]]*)/(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\\]: (.*)$", Pattern.DOTALL);
    private static final Pattern PAPER = Pattern.compile("^\\[(\\d{2}:\\d{2}:\\d{2}) (TRACE|DEBUG|INFO|WARN|ERROR|FATAL)\\]: (.*)$", Pattern.DOTALL);

    public static ConsoleLine of(String line) {
        Matcher m = VANILLA.matcher(line);
        if (m.matches()) return new ConsoleLine(m.group(1), m.group(2), m.group(3), m.group(4));
        m = PAPER.matcher(line);
        if (m.matches()) return new ConsoleLine(m.group(1), null, m.group(2), m.group(3));
        return new ConsoleLine(null, null, "INFO", line);
    }
}
