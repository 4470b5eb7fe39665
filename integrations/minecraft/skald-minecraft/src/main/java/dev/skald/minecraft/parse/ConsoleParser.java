package dev.skald.minecraft.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a console line says into Skald's type, level and metadata (docs/INGESTION.md, "Minecraft",
 * lists each line and what it becomes). Works on the message of a log event, as vanilla, Paper, Spigot,
 * Fabric and Forge log it through log4j2; {@link ConsoleLine} first cuts a latest.log line into level,
 * thread and message. Used from one thread (the appender's sender); the {@link PlayerDirectory} it reads
 * and writes is shared and thread-safe.
 */
public final class ConsoleParser {
    /** Stack frames sent per exception (and per cause): the first frames say where; metadata is limited to 16 KiB. */
    static final int MAX_FRAMES = 15;
    static final int MAX_CAUSES = 3;

    private static final String NAME = "([.*]?[A-Za-z0-9_]{1,16})";
    private static final Pattern UUID_OF = Pattern.compile("^UUID of player " + NAME + " is ([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$");
    private static final Pattern LOGGED_IN = Pattern.compile(
        "^" + NAME + "\\[([^\\]]*)\\] logged in with entity id (\\d+) at \\((?:\\[([^\\]]+)\\])?(-?[\\d.]+), (-?[\\d.]+), (-?[\\d.]+)\\)$");
    private static final Pattern JOINED = Pattern.compile("^" + NAME + "(?: \\(formerly known as " + NAME + "\\))? joined the game$");
    private static final Pattern LEFT = Pattern.compile("^" + NAME + " left the game$");
    private static final Pattern LOST = Pattern.compile("^(.+?) lost connection: (.*)$");
    private static final Pattern DISCONNECTING = Pattern.compile("^Disconnecting (.+?): (.*)$");
    /** The subject of a connection line: `Steve`, `Steve (/1.2.3.4:5)`, or a GameProfile's toString (`...name=Steve,...`). */
    private static final Pattern SUBJECT = Pattern.compile("^" + NAME + "(?: \\((/[^)]*)\\))?$");
    private static final Pattern PROFILE = Pattern.compile("name=" + NAME + "[,\\]]");
    private static final Pattern CHAT = Pattern.compile("^(\\[Not Secure\\] )?<" + NAME + "> (.*)$", Pattern.DOTALL);
    private static final Pattern EMOTE = Pattern.compile("^\\* " + NAME + " (.+)$", Pattern.DOTALL);
    private static final Pattern SAY = Pattern.compile("^\\[([^\\]\\s:]{1,32})\\] (.+)$", Pattern.DOTALL);
    private static final Pattern ISSUED = Pattern.compile("^([^\\s]{1,32}) issued server command: (/.*)$", Pattern.DOTALL);
    private static final Pattern FEEDBACK = Pattern.compile("^\\[([^\\]:\\s]{1,32}): (.+)\\]$", Pattern.DOTALL);
    private static final Pattern STARTING = Pattern.compile("^Starting minecraft server version (\\S+)$");
    private static final Pattern DONE = Pattern.compile("^Done \\((\\d+(?:\\.\\d+)?)s\\)! For help, type \"help\"(?: or \"\\?\")?$");
    private static final Pattern CANT_KEEP_UP = Pattern.compile("^Can't keep up! Is the server overloaded\\? Running (\\d+)ms or (\\d+) ticks behind$");
    /** `/1.2.3.4:25565`, `/[::1]:25565`, `/0:0:0:0:0:0:0:1:25565` as Java prints socket addresses. */
    private static final Pattern ADDRESS = Pattern.compile(
        "/(?:\\d{1,3}(?:\\.\\d{1,3}){3}|\\[[0-9A-Fa-f:.%]+\\]|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,8}(?:%\\w+)?)(?::\\d{1,5})?(?![\\w.])");
    /** Colour codes: § (Bukkit's) and ANSI escapes some consoles put in messages. */
    private static final Pattern FORMATTING = Pattern.compile("\u00a7[0-9A-FK-ORXa-fk-orx]|\u001b\\[[0-9;]*m");
    public static final String HIDDEN_ADDRESS = "/[address hidden]";

    private final PlayerDirectory players;
    private final boolean logAddresses;
    /** The version from "Starting minecraft server version", repeated on the ServerStart log. */
    private String version;

    public ConsoleParser(PlayerDirectory players, boolean logAddresses) {
        this.players = players;
        this.logAddresses = logAddresses;
    }

    /** log4j's level name as Skald's level. */
    public static String levelOf(String log4jLevel) {
        return switch (log4jLevel == null ? "INFO" : log4jLevel) {
            case "FATAL" -> "fatal";
            case "ERROR" -> "error";
            case "WARN" -> "warn";
            case "DEBUG", "TRACE", "ALL" -> "debug";
            default -> "info";
        };
    }

    /**
     * One log event.
     *
     * @param log4jLevel the event's level name (INFO, WARN, ...)
     * @param logger the logger's name
     * @param thread the thread's name
     * @param message the formatted message
     * @param thrown the event's exception, or null
     */
    public ParsedLog parse(String log4jLevel, String logger, String thread, String message, Throwable thrown) {
        String level = levelOf(log4jLevel);
        String text = FORMATTING.matcher(message == null ? "" : message).replaceAll("").strip();
        ParsedLog known = (level.equals("info") || level.equals("warn")) && isGameLogger(logger) ? known(text, level) : null;
        if (known != null) return known;
        Map<String, Object> metadata = new LinkedHashMap<>();
        if (logger != null && !logger.isEmpty()) metadata.put("logger", logger);
        if (thread != null && !thread.isEmpty()) metadata.put("thread", thread);
        if (thrown != null) metadata.put("exception", exception(thrown));
        String type = switch (level) {
            case "warn" -> "Warning";
            case "error", "fatal" -> "Error";
            default -> "General";
        };
        String shown = mask(text);
        if (shown.isEmpty()) shown = thrown != null ? thrown.getClass().getName() + (thrown.getMessage() == null ? "" : ": " + mask(thrown.getMessage())) : "(empty message)";
        return new ParsedLog(type, level, shown, metadata);
    }

    /**
     * The game's own loggers (vanilla, Paper, Fabric's and Forge's mappings all keep the net.minecraft
     * package; CraftBukkit's server logger is "Minecraft"). Player lines are read only from them: a plugin's
     * `[Essentials] Enabling Essentials` is not a /say, nor its "X died" a death. No logger: a console line.
     */
    public static boolean isGameLogger(String logger) {
        return logger == null || logger.isEmpty() || logger.startsWith("net.minecraft.") || logger.startsWith("com.mojang.") || logger.equals("Minecraft");
    }

    /** The log's resource: the plugin or mod whose logger wrote it, or the default for the game's own loggers. */
    public static String resourceOf(String logger, String defaultResource) {
        if (isGameLogger(logger)) return defaultResource;
        return logger.length() > 200 ? logger.substring(logger.length() - 200) : logger;
    }

    /** The lines with a meaning of their own, or null. */
    private ParsedLog known(String text, String level) {
        Matcher m;
        if ((m = CHAT.matcher(text)).matches()) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("player", player(m.group(2)));
            meta.put("text", m.group(3));
            if (m.group(1) != null) meta.put("notSecure", true);
            return log("Chat", "info", text, meta);
        }
        if ((m = UUID_OF.matcher(text)).matches()) {
            players.remember(m.group(1), m.group(2).toLowerCase(), null);
            return log("Login", "info", text, map("player", player(m.group(1))));
        }
        if ((m = LOGGED_IN.matcher(text)).matches()) {
            String name = m.group(1);
            String address = m.group(2);
            if (logAddresses && address.startsWith("/")) players.remember(name, null, address.substring(1));
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("player", player(name));
            meta.put("entityId", Long.parseLong(m.group(3)));
            Map<String, Object> position = new LinkedHashMap<>();
            if (m.group(4) != null) position.put("world", m.group(4));
            position.put("x", Double.parseDouble(m.group(5)));
            position.put("y", Double.parseDouble(m.group(6)));
            position.put("z", Double.parseDouble(m.group(7)));
            meta.put("position", position);
            String shown = logAddresses ? text : name + text.substring(text.indexOf("] logged in") + 1);
            return log("Login", "info", shown, meta);
        }
        if ((m = JOINED.matcher(text)).matches()) {
            Map<String, Object> meta = map("player", player(m.group(1)));
            if (m.group(2) != null) meta.put("formerName", m.group(2));
            return log("Join", "info", text, meta);
        }
        if ((m = LEFT.matcher(text)).matches()) {
            Map<String, Object> meta = map("player", player(m.group(1)));
            players.forget(m.group(1));
            return log("Leave", "info", text, meta);
        }
        if ((m = LOST.matcher(text)).matches()) {
            String name = subjectName(m.group(1));
            if (name != null) {
                Map<String, Object> meta = map("player", player(name));
                meta.put("reason", mask(m.group(2)));
                return log("Disconnect", "info", mask(text), meta);
            }
        }
        if ((m = DISCONNECTING.matcher(text)).matches()) {
            String name = subjectName(m.group(1));
            if (name != null) {
                Map<String, Object> meta = map("player", player(name));
                meta.put("reason", mask(m.group(2)));
                return log("LoginRefused", "info", mask(text), meta);
            }
        }
        if ((m = ISSUED.matcher(text)).matches()) {
            Map<String, Object> meta = source(m.group(1));
            meta.put("command", m.group(2));
            return log("Command", "info", text, meta);
        }
        if ((m = FEEDBACK.matcher(text)).matches()) {
            Map<String, Object> meta = source(m.group(1));
            meta.put("feedback", m.group(2));
            return log("Command", "info", text, meta);
        }
        if ((m = SAY.matcher(text)).matches()) {
            Map<String, Object> meta = source(m.group(1));
            meta.put("text", m.group(2));
            return log("Broadcast", "info", text, meta);
        }
        if ((m = EMOTE.matcher(text)).matches()) {
            Map<String, Object> meta = map("player", player(m.group(1)));
            meta.put("text", m.group(2));
            meta.put("emote", true);
            return log("Chat", "info", text, meta);
        }
        if ((m = STARTING.matcher(text)).matches()) {
            version = m.group(1);
            return log("ServerStarting", "info", text, map("version", version));
        }
        if ((m = DONE.matcher(text)).matches()) {
            Map<String, Object> meta = map("startupSeconds", Double.parseDouble(m.group(1)));
            if (version != null) meta.put("version", version);
            return log("ServerStart", "info", text, meta);
        }
        if (text.equals("Stopping server")) return log("ServerStop", "info", text, new LinkedHashMap<>());
        if ((m = CANT_KEEP_UP.matcher(text)).matches()) {
            Map<String, Object> meta = map("behindMs", Long.parseLong(m.group(1)));
            meta.put("behindTicks", Long.parseLong(m.group(2)));
            return log("Lag", "warn", text, meta);
        }
        DeathMessages.Death death = level.equals("info") ? DeathMessages.match(text) : null;
        if (death != null) return death(text, death);
        return null;
    }

    private ParsedLog death(String text, DeathMessages.Death death) {
        Map<String, Object> meta = map("victim", player(death.victim()));
        Map<String, Object> fromPlugin = players.takeDeath(death.victim());
        Object pluginKiller = fromPlugin == null ? null : fromPlugin.get("killer");
        if (pluginKiller != null) {
            meta.put("killer", pluginKiller);
        } else if (death.killer() != null) {
            Map<String, Object> killer = new LinkedHashMap<>();
            killer.put("name", death.killer());
            String uuid = players.uuidOf(death.killer());
            if (uuid != null) killer.put("uuid", uuid);
            meta.put("killer", killer);
        }
        if (death.item() != null) meta.put("weapon", death.item());
        meta.put("deathMessage", death.key());
        if (fromPlugin != null) {
            for (Map.Entry<String, Object> entry : fromPlugin.entrySet()) {
                if (!entry.getKey().equals("killer")) meta.putIfAbsent(entry.getKey(), entry.getValue());
            }
        }
        return log("Death", "warn", text, meta);
    }

    /** A player as metadata: name, and the UUID (and address, when configured) the directory knows. */
    private Map<String, Object> player(String name) {
        Map<String, Object> player = new LinkedHashMap<>();
        player.put("name", name);
        String uuid = players.uuidOf(name);
        if (uuid != null) player.put("uuid", uuid);
        if (logAddresses) {
            String address = players.addressOf(name);
            if (address != null) player.put("address", address);
        }
        return player;
    }

    /** Who ran a command: the console, RCON, a command block, or a player. */
    private Map<String, Object> source(String who) {
        Map<String, Object> meta = new LinkedHashMap<>();
        switch (who) {
            case "CONSOLE", "Server" -> meta.put("source", "console");
            case "Rcon" -> meta.put("source", "rcon");
            case "@" -> meta.put("source", "commandBlock");
            default -> {
                meta.put("source", "player");
                meta.put("player", player(who));
            }
        }
        return meta;
    }

    private static String subjectName(String subject) {
        Matcher m = SUBJECT.matcher(subject);
        if (m.matches()) return m.group(1);
        Matcher profile = PROFILE.matcher(subject);
        return subject.startsWith("com.mojang.authlib.GameProfile") && profile.find() ? profile.group(1) : null;
    }

    private ParsedLog log(String type, String level, String message, Map<String, Object> metadata) {
        return new ParsedLog(type, level, message, metadata);
    }

    private static Map<String, Object> map(String key, Object value) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(key, value);
        return out;
    }

    /** Socket addresses in a text, hidden unless addresses are configured. */
    public String mask(String text) {
        return logAddresses || text.indexOf('/') < 0 ? text : ADDRESS.matcher(text).replaceAll(Matcher.quoteReplacement(HIDDEN_ADDRESS));
    }

    /** An exception as metadata: class, message, the first frames, and the causes' class and message. */
    private Map<String, Object> exception(Throwable thrown) {
        Map<String, Object> out = describe(thrown);
        List<Object> frames = new ArrayList<>();
        StackTraceElement[] trace = thrown.getStackTrace();
        for (int i = 0; i < Math.min(trace.length, MAX_FRAMES); i++) frames.add(trace[i].toString());
        if (trace.length > MAX_FRAMES) frames.add("... " + (trace.length - MAX_FRAMES) + " more");
        out.put("stack", frames);
        List<Object> causes = new ArrayList<>();
        Throwable cause = thrown.getCause();
        while (cause != null && cause != thrown && causes.size() < MAX_CAUSES) {
            causes.add(describe(cause));
            cause = cause.getCause();
        }
        if (!causes.isEmpty()) out.put("causes", causes);
        return out;
    }

    private Map<String, Object> describe(Throwable thrown) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("class", thrown.getClass().getName());
        String message = thrown.getMessage();
        if (message != null) out.put("message", mask(message.length() > 1000 ? message.substring(0, 1000) : message));
        return out;
    }
}
