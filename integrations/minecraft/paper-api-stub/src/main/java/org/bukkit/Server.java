package org.bukkit;

import org.bukkit.plugin.PluginManager;

/** Stub of Paper's org.bukkit.Server (compile-time only). */
public interface Server {
    PluginManager getPluginManager();
}
