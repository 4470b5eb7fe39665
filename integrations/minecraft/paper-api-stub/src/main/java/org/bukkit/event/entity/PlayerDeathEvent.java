package org.bukkit.event.entity;

import org.bukkit.entity.Player;

/** Stub of Paper's org.bukkit.event.entity.PlayerDeathEvent (an EntityDeathEvent there; compile-time only). */
public class PlayerDeathEvent {
    public Player getEntity() {
        throw new UnsupportedOperationException("stub");
    }
}
