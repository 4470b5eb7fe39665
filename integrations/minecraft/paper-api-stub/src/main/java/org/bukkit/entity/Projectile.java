package org.bukkit.entity;

import org.bukkit.projectiles.ProjectileSource;

/** Stub of Paper's org.bukkit.entity.Projectile (compile-time only). */
public interface Projectile extends Entity {
    ProjectileSource getShooter();
}
