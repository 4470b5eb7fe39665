package org.bukkit.event.player;

/** Stub of Paper's org.bukkit.event.player.PlayerQuitEvent (compile-time only). */
public class PlayerQuitEvent extends PlayerEvent {
}
