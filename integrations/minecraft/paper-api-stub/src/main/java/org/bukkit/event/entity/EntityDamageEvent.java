package org.bukkit.event.entity;

/** Stub of Paper's org.bukkit.event.entity.EntityDamageEvent (compile-time only). */
public class EntityDamageEvent {
    public DamageCause getCause() {
        throw new UnsupportedOperationException("stub");
    }

    /** Paper's has some 30 constants; the plugin sends the constant's name, so none is named here. */
    public enum DamageCause {
    }
}
