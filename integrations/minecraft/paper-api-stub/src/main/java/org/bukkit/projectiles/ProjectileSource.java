package org.bukkit.projectiles;

/** Stub of Paper's org.bukkit.projectiles.ProjectileSource (compile-time only). */
public interface ProjectileSource {
}
