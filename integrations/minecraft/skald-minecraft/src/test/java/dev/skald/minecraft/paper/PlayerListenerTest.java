package dev.skald.minecraft.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.skald.minecraft.parse.ConsoleParser;
import dev.skald.minecraft.parse.ParsedLog;
import dev.skald.minecraft.parse.PlayerDirectory;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.UUID;
import org.bukkit.entity.Player;
import org.bukkit.event.entity.PlayerDeathEvent;
import org.bukkit.event.player.PlayerJoinEvent;
import org.bukkit.event.player.PlayerQuitEvent;
import org.junit.jupiter.api.Test;

/** The plugin's listener feeding the parser: the UUID of the join event on the console's join line, a death without killer. */
class PlayerListenerTest {
    private static final UUID ALEX = UUID.fromString("853c80ef-3c37-49fd-aa49-938b674adae6");
    private static final String GAME = "net.minecraft.server.MinecraftServer";

    /** A Player answering name, UUID, address; no killer, no damage recorded. */
    private static Player player(String name, UUID uuid) {
        return (Player) Proxy.newProxyInstance(Player.class.getClassLoader(), new Class<?>[] {Player.class}, (proxy, method, args) -> switch (method.getName()) {
            case "getName" -> name;
            case "getUniqueId" -> uuid;
            case "getAddress" -> new InetSocketAddress("203.0.113.7", 61234);
            case "getKiller", "getLastDamageCause" -> null;
            default -> throw new UnsupportedOperationException(method.getName());
        });
    }

    @Test
    void joinQuitAndDeathAddWhatTheConsoleDoesNotSay() {
        PlayerDirectory players = new PlayerDirectory();
        PlayerListener listener = new PlayerListener(players, false);
        ConsoleParser parser = new ConsoleParser(players, false);
        Player alex = player("Alex", ALEX);
        listener.onJoin(new PlayerJoinEvent(alex, "Alex joined the game"));
        ParsedLog join = parser.parse("INFO", GAME, "Server thread", "Alex joined the game", null);
        assertEquals(Map.of("player", Map.of("name", "Alex", "uuid", ALEX.toString())), join.metadata());
        assertFalse(join.toString().contains("203.0.113.7"), "no address unless configured");
        listener.onDeath(new PlayerDeathEvent(alex));
        ParsedLog death = parser.parse("INFO", GAME, "Server thread", "Alex fell from a high place", null);
        assertEquals(Map.of("victim", Map.of("name", "Alex", "uuid", ALEX.toString()), "deathMessage", "death.fell.accident.generic"), death.metadata());
        listener.onQuit(new PlayerQuitEvent(alex, "Alex left the game"));
        assertEquals(Map.of("player", Map.of("name", "Alex", "uuid", ALEX.toString())), parser.parse("INFO", GAME, "Server thread", "Alex left the game", null).metadata());
    }

    @Test
    void theAddressOnlyWhenConfigured() {
        PlayerDirectory players = new PlayerDirectory();
        new PlayerListener(players, true).onJoin(new PlayerJoinEvent(player("Alex", ALEX), "Alex joined the game"));
        ParsedLog join = new ConsoleParser(players, true).parse("INFO", GAME, "Server thread", "Alex joined the game", null);
        assertEquals(Map.of("name", "Alex", "uuid", ALEX.toString(), "address", "203.0.113.7:61234"), join.metadata().get("player"));
    }
}
