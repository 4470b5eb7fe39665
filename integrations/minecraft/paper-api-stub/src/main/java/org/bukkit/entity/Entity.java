package org.bukkit.entity;

import java.util.UUID;
import org.bukkit.event.entity.EntityDamageEvent;

/** Stub of Paper's org.bukkit.entity.Entity (compile-time only). */
public interface Entity {
    String getName();

    UUID getUniqueId();

    EntityType getType();

    EntityDamageEvent getLastDamageCause();
}
