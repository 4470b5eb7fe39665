package org.bukkit.event.player;

import org.bukkit.entity.Player;

/** Stub of Paper's org.bukkit.event.player.PlayerQuitEvent (compile-time only). */
public class PlayerQuitEvent extends PlayerEvent {
    /** Paper's constructor (the message as a legacy string); the plugin's tests make events with it. */
    public PlayerQuitEvent(Player player, String quitMessage) {
        super(player);
    }
}
