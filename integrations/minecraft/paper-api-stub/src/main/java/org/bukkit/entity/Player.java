package org.bukkit.entity;

import java.net.InetSocketAddress;

/** Stub of Paper's org.bukkit.entity.Player (compile-time only). */
public interface Player extends Entity {
    InetSocketAddress getAddress();

    Player getKiller();
}
