package org.bukkit.event.player;

/** Stub of Paper's org.bukkit.event.player.PlayerJoinEvent (compile-time only). */
public class PlayerJoinEvent extends PlayerEvent {
}
