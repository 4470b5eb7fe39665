package org.bukkit.entity;

/** Stub of Paper's org.bukkit.entity.EntityType (compile-time only; the plugin sends the constant's name). */
public enum EntityType {
}
