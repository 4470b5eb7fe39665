package org.bukkit.event;

/** Stub of Paper's org.bukkit.event.EventPriority (compile-time only). */
public enum EventPriority {
    LOWEST, LOW, NORMAL, HIGH, HIGHEST, MONITOR
}
