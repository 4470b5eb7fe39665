package org.bukkit.plugin;

import org.bukkit.event.Listener;

/** Stub of Paper's org.bukkit.plugin.PluginManager (compile-time only). */
public interface PluginManager {
    void registerEvents(Listener listener, Plugin plugin);
}
