package org.bukkit.event.entity;

import org.bukkit.entity.Entity;

/** Stub of Paper's org.bukkit.event.entity.EntityDamageByEntityEvent (compile-time only). */
public class EntityDamageByEntityEvent extends EntityDamageEvent {
    public Entity getDamager() {
        throw new UnsupportedOperationException("stub");
    }
}
