package org.bukkit.plugin;

/** Stub of Paper's org.bukkit.plugin.Plugin: only what the Skald plugin uses (compile-time only, never shipped). */
public interface Plugin {
}
