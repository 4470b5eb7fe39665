package org.bukkit.event.entity;

import org.bukkit.entity.Player;

/**
 * Stub of Paper's org.bukkit.event.entity.PlayerDeathEvent (an EntityDeathEvent there; compile-time only).
 * The constructor is the stub's own, for the plugin's tests: the plugin makes no event.
 */
public class PlayerDeathEvent {
    private final Player player;

    public PlayerDeathEvent(Player player) {
        this.player = player;
    }

    public Player getEntity() {
        return player;
    }
}
