package dev.skald.minecraft.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The parsers on vanilla and Paper console lines, as the game prints them (test resources). */
class ConsoleParserTest {
    private final PlayerDirectory players = new PlayerDirectory();

    @BeforeEach
    void clear() {
        players.clear();
    }

    private List<ParsedLog> parseFile(String resource, boolean logAddresses) throws IOException {
        ConsoleParser parser = new ConsoleParser(players, logAddresses);
        List<ParsedLog> out = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/" + resource)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                ConsoleLine cut = ConsoleLine.of(line);
                out.add(parser.parse(cut.level(), "net.minecraft.server.MinecraftServer", cut.thread(), cut.message(), null));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object value) {
        return (Map<String, Object>) value;
    }

    @Test
    void vanillaLines() throws IOException {
        List<ParsedLog> logs = parseFile("vanilla-console.txt", false);
        List<String> types = logs.stream().map(ParsedLog::type).toList();
        assertEquals(List.of("General", "ServerStarting", "General", "ServerStart", "Login", "Login", "Join", "Chat", "Chat", "Command", "Chat", "Death", "Death", "Death",
            "Lag", "Command", "Broadcast", "Disconnect", "Leave", "ServerStop"), types);
        assertEquals(Map.of("version", "1.21.1"), logs.get(1).metadata());
        assertEquals(Map.of("startupSeconds", 3.214, "version", "1.21.1"), logs.get(3).metadata());
        String uuid = "069a79f4-44e9-4726-a5be-fca90e38aaf5";
        assertEquals(Map.of("name", "Steve", "uuid", uuid), logs.get(4).metadata().get("player"));
        ParsedLog loggedIn = logs.get(5);
        assertEquals("Steve logged in with entity id 138 at (-23.5, 71.0, 12.5)", loggedIn.message(), "the address is not sent unless configured");
        assertEquals(138L, loggedIn.metadata().get("entityId"));
        assertEquals(Map.of("x", -23.5, "y", 71.0, "z", 12.5), loggedIn.metadata().get("position"));
        assertEquals(Map.of("player", Map.of("name", "Steve", "uuid", uuid)), logs.get(6).metadata(), "the join carries the UUID the login line gave");
        assertEquals(Map.of("player", Map.of("name", "Steve", "uuid", uuid), "text", "hello there"), logs.get(7).metadata());
        assertEquals(true, logs.get(8).metadata().get("notSecure"));
        assertEquals("unsigned hello", logs.get(8).metadata().get("text"));
        assertEquals("player", logs.get(9).metadata().get("source"));
        assertEquals("Set own game mode to Creative Mode", logs.get(9).metadata().get("feedback"));
        assertEquals(true, logs.get(10).metadata().get("emote"));
        ParsedLog slain = logs.get(11);
        assertEquals("warn", slain.level());
        assertEquals(Map.of("name", "Steve", "uuid", uuid), slain.metadata().get("victim"));
        assertEquals(Map.of("name", "Zombie"), slain.metadata().get("killer"));
        assertEquals("death.attack.mob", slain.metadata().get("deathMessage"));
        assertEquals("death.fell.accident.generic", logs.get(12).metadata().get("deathMessage"));
        assertFalse(logs.get(12).metadata().containsKey("killer"));
        assertEquals("Bow of Doom", logs.get(13).metadata().get("weapon"));
        assertEquals("death.attack.arrow.item", logs.get(13).metadata().get("deathMessage"));
        assertEquals(Map.of("name", "Skeleton"), logs.get(13).metadata().get("killer"));
        assertEquals("warn", logs.get(14).level());
        assertEquals(Map.of("behindMs", 2045L, "behindTicks", 40L), logs.get(14).metadata());
        assertEquals(Map.of("source", "rcon", "feedback", "Saved the game"), logs.get(15).metadata());
        assertEquals(Map.of("source", "console", "text", "Restarting in 5 minutes"), logs.get(16).metadata());
        assertEquals("Disconnected", logs.get(17).metadata().get("reason"));
        assertEquals(Map.of("player", Map.of("name", "Steve", "uuid", uuid)), logs.get(18).metadata());
        assertEquals(Map.of(), logs.get(19).metadata());
        assertEquals(Map.of("logger", "net.minecraft.server.MinecraftServer", "thread", "ServerMain"), logs.get(0).metadata());
    }

    @Test
    void paperLines() throws IOException {
        List<ParsedLog> logs = parseFile("paper-console.txt", false);
        List<String> types = logs.stream().map(ParsedLog::type).toList();
        assertEquals(List.of("ServerStarting", "ServerStart", "Login", "Login", "Join", "Chat", "Command", "Command", "Death", "Death", "Warning", "LoginRefused", "Disconnect",
            "Leave", "ServerStop"), types);
        assertEquals(Map.of("world", "world", "x", 104.5, "y", 64.0, "z", -33.2), logs.get(3).metadata().get("position"));
        assertFalse(logs.get(3).message().contains("203.0.113.7"));
        Map<String, Object> alex = Map.of("name", "Alex_99", "uuid", "853c80ef-3c37-49fd-aa49-938b674adae6");
        assertEquals(Map.of("source", "player", "player", alex, "command", "/tpa Steve"), logs.get(6).metadata());
        assertEquals(Map.of("source", "console", "command", "/whitelist add Bob"), logs.get(7).metadata());
        assertEquals("death.attack.explosion.player", logs.get(8).metadata().get("deathMessage"));
        assertEquals(Map.of("name", "Creeper"), logs.get(8).metadata().get("killer"));
        assertEquals("Excalibur", logs.get(9).metadata().get("weapon"));
        assertEquals("Steve", obj(logs.get(9).metadata().get("killer")).get("name"));
        assertEquals("warn", logs.get(10).level());
        ParsedLog refused = logs.get(11);
        assertEquals(Map.of("name", "Griefer"), refused.metadata().get("player"));
        assertEquals("You are not whitelisted on this server!", refused.metadata().get("reason"));
        assertFalse(refused.message().contains("198.51.100.23"), refused.message());
        assertTrue(refused.message().contains(ConsoleParser.HIDDEN_ADDRESS));
        assertEquals("Timed out", logs.get(12).metadata().get("reason"));
    }

    @Test
    void addressesOnlyWhenConfigured() throws IOException {
        List<ParsedLog> logs = parseFile("paper-console.txt", true);
        assertEquals("Alex_99[/203.0.113.7:61234] logged in with entity id 412 at ([world]104.5, 64.0, -33.2)", logs.get(3).message());
        assertEquals("203.0.113.7:61234", obj(logs.get(4).metadata().get("player")).get("address"));
        assertTrue(logs.get(11).message().contains("/198.51.100.23:50211"));
        players.clear();
        List<ParsedLog> hidden = parseFile("paper-console.txt", false);
        for (ParsedLog log : hidden) {
            String all = log.message() + log.metadata();
            assertFalse(all.contains("203.0.113.7") || all.contains("198.51.100.23"), all);
        }
    }

    @Test
    void masksAddressesInAnyLine() {
        ConsoleParser parser = new ConsoleParser(players, false);
        ParsedLog v6 = parser.parse("INFO", "net.minecraft.server.network.ServerLoginPacketListenerImpl", "Server thread", "/[0:0:0:0:0:0:0:1]:51234 lost connection: Internal Exception", null);
        assertEquals("/[address hidden] lost connection: Internal Exception", v6.message());
        ParsedLog other = parser.parse("INFO", "SomePlugin", "Server thread", "Rcon connection from: /10.1.2.3", null);
        assertEquals("Rcon connection from: /[address hidden]", other.message());
        assertEquals("/whitelist add Bob", parser.mask("/whitelist add Bob"));
    }

    @Test
    void pluginLinesAreNotPlayerLines() {
        ConsoleParser parser = new ConsoleParser(players, false);
        ParsedLog say = parser.parse("INFO", "Essentials", "Server thread", "[Essentials] Enabling Essentials v2.20.1", null);
        assertEquals("General", say.type());
        assertEquals("Essentials", ConsoleParser.resourceOf("Essentials", "minecraft"));
        assertEquals("minecraft", ConsoleParser.resourceOf("net.minecraft.server.MinecraftServer", "minecraft"));
        assertEquals("General", parser.parse("INFO", "MyPlugin", "Server thread", "Steve drowned", null).type());
    }

    @Test
    void errorsCarryLoggerAndException() {
        ConsoleParser parser = new ConsoleParser(players, false);
        Exception cause = new IllegalStateException("region file corrupt");
        Exception thrown = new RuntimeException("Couldn't load chunk [12, -4]", cause);
        ParsedLog error = parser.parse("ERROR", "net.minecraft.world.level.chunk.storage.RegionFileStorage", "Worker-Main-3", "Failed to load chunk", thrown);
        assertEquals("Error", error.type());
        assertEquals("error", error.level());
        assertEquals("net.minecraft.world.level.chunk.storage.RegionFileStorage", error.metadata().get("logger"));
        assertEquals("Worker-Main-3", error.metadata().get("thread"));
        Map<String, Object> exception = obj(error.metadata().get("exception"));
        assertEquals("java.lang.RuntimeException", exception.get("class"));
        assertEquals("Couldn't load chunk [12, -4]", exception.get("message"));
        assertTrue(((List<?>) exception.get("stack")).get(0).toString().contains("ConsoleParserTest"));
        assertEquals(List.of(Map.of("class", "java.lang.IllegalStateException", "message", "region file corrupt")), exception.get("causes"));
        ParsedLog noMessage = parser.parse("ERROR", "x", "t", "", new IllegalArgumentException("bad"));
        assertEquals("java.lang.IllegalArgumentException: bad", noMessage.message());
        assertEquals("Warning", parser.parse("WARN", "com.example.Plugin", "t", "careful", null).type());
        assertEquals("fatal", parser.parse("FATAL", "x", "t", "down", null).level());
        assertEquals("debug", parser.parse("DEBUG", "x", "t", "detail", null).level());
    }

    @Test
    void pluginDetailsJoinTheDeath() {
        ConsoleParser parser = new ConsoleParser(players, false);
        players.rememberDeath("Steve", Map.of("cause", "ENTITY_ATTACK", "killer", Map.of("name", "Alex", "uuid", "853c80ef-3c37-49fd-aa49-938b674adae6", "type", "PLAYER")));
        ParsedLog death = parser.parse("INFO", "net.minecraft.server.MinecraftServer", "Server thread", "Steve was slain by Alex using [Iron Sword]", null);
        assertEquals("ENTITY_ATTACK", death.metadata().get("cause"));
        assertEquals(Map.of("name", "Alex", "uuid", "853c80ef-3c37-49fd-aa49-938b674adae6", "type", "PLAYER"), death.metadata().get("killer"));
        assertEquals("Iron Sword", death.metadata().get("weapon"));
        assertNull(players.takeDeath("Steve"), "the details are used once");
    }

    @Test
    void colourCodesAreStripped() {
        ConsoleParser parser = new ConsoleParser(players, false);
        ParsedLog chat = parser.parse("INFO", "net.minecraft.server.MinecraftServer", "Server thread", "\u00a7e<Steve> \u00a7ahi\u001b[0m", null);
        assertEquals("Chat", chat.type());
        assertEquals("<Steve> hi", chat.message());
    }
}
