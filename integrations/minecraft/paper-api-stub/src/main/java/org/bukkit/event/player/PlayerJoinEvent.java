package org.bukkit.event.player;

import org.bukkit.entity.Player;

/** Stub of Paper's org.bukkit.event.player.PlayerJoinEvent (compile-time only). */
public class PlayerJoinEvent extends PlayerEvent {
    /** Paper's constructor (the message as a legacy string); the plugin's tests make events with it. */
    public PlayerJoinEvent(Player player, String joinMessage) {
        super(player);
    }
}
