package org.bukkit.plugin.java;

import java.util.logging.Logger;
import org.bukkit.Server;
import org.bukkit.configuration.file.FileConfiguration;
import org.bukkit.plugin.Plugin;

/** Stub of Paper's org.bukkit.plugin.java.JavaPlugin: the methods the Skald plugin calls (compile-time only). */
public abstract class JavaPlugin implements Plugin {
    public final Server getServer() {
        throw new UnsupportedOperationException("stub");
    }

    public FileConfiguration getConfig() {
        throw new UnsupportedOperationException("stub");
    }

    public void saveDefaultConfig() {
        throw new UnsupportedOperationException("stub");
    }

    public Logger getLogger() {
        throw new UnsupportedOperationException("stub");
    }

    public void onEnable() {
    }

    public void onDisable() {
    }
}
