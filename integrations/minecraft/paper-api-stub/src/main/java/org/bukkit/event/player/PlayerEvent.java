package org.bukkit.event.player;

import org.bukkit.entity.Player;

/** Stub of Paper's org.bukkit.event.player.PlayerEvent (compile-time only). */
public abstract class PlayerEvent {
    private final Player player;

    /** Paper's constructor; the plugin's tests make events with it. */
    public PlayerEvent(Player who) {
        this.player = who;
    }

    public final Player getPlayer() {
        return player;
    }
}
