package org.bukkit.event.player;

import org.bukkit.entity.Player;

/** Stub of Paper's org.bukkit.event.player.PlayerEvent (compile-time only). */
public abstract class PlayerEvent {
    public final Player getPlayer() {
        throw new UnsupportedOperationException("stub");
    }
}
