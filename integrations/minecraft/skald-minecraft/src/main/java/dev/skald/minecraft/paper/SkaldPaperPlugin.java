package dev.skald.minecraft.paper;

import dev.skald.minecraft.appender.SkaldAppender;
import dev.skald.minecraft.parse.PlayerDirectory;
import org.bukkit.configuration.file.FileConfiguration;
import org.bukkit.plugin.java.JavaPlugin;

/**
 * The Paper (and Spigot, Folia) plugin: at enable it attaches a Skald appender built from config.yml to the
 * server's log4j root logger, so every console line goes to Skald; its listener adds what the console does
 * not print (players' UUIDs on join and quit, a death's killer and cause). Folia: the listener only writes
 * to a thread-safe map, whichever region thread calls it.
 */
public final class SkaldPaperPlugin extends JavaPlugin {
    private SkaldAppender appender;

    @Override
    public void onEnable() {
        saveDefaultConfig();
        FileConfiguration config = getConfig();
        boolean logAddresses = config.getBoolean("log-addresses");
        try {
            SkaldAppender.Builder builder = SkaldAppender.newBuilder()
                .setName("SkaldPlugin")
                .setUrl(config.getString("url"))
                .setApiKey(config.getString("api-key"))
                .setApiKeyEnv(config.getString("api-key-env"))
                .setLevel(orDefault(config.getString("level"), "INFO"))
                .setLogAddresses(logAddresses);
            int batchSize = config.getInt("batch-size");
            if (batchSize > 0) builder.setBatchSize(batchSize);
            int queueCapacity = config.getInt("queue-capacity");
            if (queueCapacity > 0) builder.setQueueCapacity(queueCapacity);
            appender = builder.buildOrThrow("SkaldPlugin");
        } catch (IllegalArgumentException e) {
            // The sentence names the setting; it never holds the key.
            getLogger().warning("not sending logs to Skald: " + e.getMessage() + " (plugins/Skald/config.yml)");
            return;
        }
        SkaldAppender.attach(appender);
        getServer().getPluginManager().registerEvents(new PlayerListener(PlayerDirectory.shared(), logAddresses), this);
        getLogger().info("sending the console to " + appender.settings().endpoint());
    }

    @Override
    public void onDisable() {
        if (appender != null) SkaldAppender.detach(appender);
        appender = null;
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
