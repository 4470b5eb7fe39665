package dev.skald.minecraft.parse;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the console said (or the Paper plugin told) about players, for the lines that do not say it: the
 * UUID comes in "UUID of player Steve is ..." before "Steve joined the game"; the killer's UUID and the
 * damage cause come from the plugin's death event before the death message is logged. Bounded (least
 * recently used entries go first) and safe to call from any thread: the plugin calls it from the server
 * or region threads, the parser from the sender thread.
 */
public final class PlayerDirectory {
    /** More players than a server has online at once; an entry a leave never removed ages out. */
    static final int MAX_PLAYERS = 4096;
    /** A death the plugin saw and the console never logged (a plugin hid the message) is forgotten after this. */
    static final long DEATH_CONTEXT_MILLIS = 60_000;

    private static final PlayerDirectory SHARED = new PlayerDirectory();

    private record Known(String uuid, String address) {
    }

    private record Death(Map<String, Object> details, long expiresAt) {
    }

    private final Map<String, Known> players = lru();
    private final Map<String, Death> deaths = lru();

    /** The one directory of this class loader: the appender (from log4j2.xml or the plugin) and the plugin share it. */
    public static PlayerDirectory shared() {
        return SHARED;
    }

    private static <V> Map<String, V> lru() {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > MAX_PLAYERS;
            }
        };
    }

    /** A player's UUID (and address, kept only to be sent when addresses are configured); null values keep what was known. */
    public void remember(String name, String uuid, String address) {
        if (name == null || name.isEmpty()) return;
        synchronized (players) {
            Known old = players.get(name);
            players.put(name, new Known(uuid != null ? uuid : old == null ? null : old.uuid, address != null ? address : old == null ? null : old.address));
        }
    }

    public String uuidOf(String name) {
        synchronized (players) {
            Known known = players.get(name);
            return known == null ? null : known.uuid;
        }
    }

    public String addressOf(String name) {
        synchronized (players) {
            Known known = players.get(name);
            return known == null ? null : known.address;
        }
    }

    public void forget(String name) {
        synchronized (players) {
            players.remove(name);
        }
    }

    /** What the plugin knows of a death (killer, cause) for the death message the console logs next. */
    public void rememberDeath(String victim, Map<String, Object> details) {
        if (victim == null) return;
        synchronized (deaths) {
            deaths.put(victim, new Death(Map.copyOf(details), System.currentTimeMillis() + DEATH_CONTEXT_MILLIS));
        }
    }

    /** The plugin's details of the victim's latest death, once (null when none or too old). */
    public Map<String, Object> takeDeath(String victim) {
        synchronized (deaths) {
            Death death = deaths.remove(victim);
            return death == null || death.expiresAt < System.currentTimeMillis() ? null : death.details;
        }
    }

    /** For tests: forget everything. */
    public void clear() {
        synchronized (players) {
            players.clear();
        }
        synchronized (deaths) {
            deaths.clear();
        }
    }
}
