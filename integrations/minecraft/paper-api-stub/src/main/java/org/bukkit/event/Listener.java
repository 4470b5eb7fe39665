package org.bukkit.event;

/** Stub of Paper's org.bukkit.event.Listener (compile-time only). */
public interface Listener {
}
