package dev.skald.minecraft.paper;

import dev.skald.minecraft.parse.PlayerDirectory;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bukkit.entity.Entity;
import org.bukkit.entity.Player;
import org.bukkit.entity.Projectile;
import org.bukkit.event.EventHandler;
import org.bukkit.event.EventPriority;
import org.bukkit.event.Listener;
import org.bukkit.event.entity.EntityDamageByEntityEvent;
import org.bukkit.event.entity.EntityDamageEvent;
import org.bukkit.event.entity.PlayerDeathEvent;
import org.bukkit.event.player.PlayerJoinEvent;
import org.bukkit.event.player.PlayerQuitEvent;

/**
 * Tells the parser what the console leaves out. Each event fires before its console line is logged (the
 * join, quit and death messages are the events' own, broadcast after the listeners ran), so the line, when
 * parsed, finds the UUID and the killer here. LOWEST: before other plugins can cancel or rewrite anything.
 */
public final class PlayerListener implements Listener {
    private final PlayerDirectory players;
    private final boolean logAddresses;

    public PlayerListener(PlayerDirectory players, boolean logAddresses) {
        this.players = players;
        this.logAddresses = logAddresses;
    }

    @EventHandler(priority = EventPriority.LOWEST)
    public void onJoin(PlayerJoinEvent event) {
        Player player = event.getPlayer();
        players.remember(player.getName(), player.getUniqueId().toString(), logAddresses ? address(player.getAddress()) : null);
    }

    @EventHandler(priority = EventPriority.LOWEST)
    public void onQuit(PlayerQuitEvent event) {
        Player player = event.getPlayer();
        players.remember(player.getName(), player.getUniqueId().toString(), null);
    }

    @EventHandler(priority = EventPriority.LOWEST)
    public void onDeath(PlayerDeathEvent event) {
        Player victim = event.getEntity();
        players.remember(victim.getName(), victim.getUniqueId().toString(), null);
        Map<String, Object> details = new LinkedHashMap<>();
        EntityDamageEvent damage = victim.getLastDamageCause();
        if (damage != null) details.put("cause", damage.getCause().name());
        Entity killer = killerOf(victim, damage);
        if (killer != null) {
            Map<String, Object> about = new LinkedHashMap<>();
            about.put("name", killer.getName());
            about.put("uuid", killer.getUniqueId().toString());
            about.put("type", killer.getType().name());
            details.put("killer", about);
        }
        players.rememberDeath(victim.getName(), details);
    }

    /** The entity that dealt the last damage (an arrow's shooter, not the arrow), else the player the game credits. */
    private static Entity killerOf(Player victim, EntityDamageEvent damage) {
        if (damage instanceof EntityDamageByEntityEvent byEntity) {
            Entity damager = byEntity.getDamager();
            if (damager instanceof Projectile projectile && projectile.getShooter() instanceof Entity shooter) return shooter;
            if (damager != null) return damager;
        }
        return victim.getKiller();
    }

    private static String address(InetSocketAddress address) {
        return address == null || address.getAddress() == null ? null : address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
