package dev.skald.minecraft.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The vanilla death messages (the game's en_us language file, keys death.*) as patterns: %1$s is the victim,
 * %2$s the killer (a player, a mob or a named entity, spaces allowed), %3$s the item, which the console prints
 * in brackets ("[Diamond Sword]"). Several formats match some lines ("X was killed by magic" also reads as
 * "was killed by %2$s"): the format with the most fixed text wins, which is always the right one.
 */
public final class DeathMessages {
    /** The game's formats, key and English text, as the language file has them. */
    static final String[][] FORMATS = {
        {"death.attack.anvil", "%1$s was squashed by a falling anvil"},
        {"death.attack.anvil.player", "%1$s was squashed by a falling anvil while fighting %2$s"},
        {"death.attack.arrow", "%1$s was shot by %2$s"},
        {"death.attack.arrow.item", "%1$s was shot by %2$s using %3$s"},
        {"death.attack.badRespawnPoint.message", "%1$s was killed by [Intentional Game Design]"},
        {"death.attack.cactus", "%1$s was pricked to death"},
        {"death.attack.cactus.player", "%1$s walked into a cactus while trying to escape %2$s"},
        {"death.attack.cramming", "%1$s was squished too much"},
        {"death.attack.cramming.player", "%1$s was squashed by %2$s"},
        {"death.attack.dragonBreath", "%1$s was roasted in dragon's breath"},
        {"death.attack.dragonBreath.player", "%1$s was roasted in dragon's breath by %2$s"},
        {"death.attack.drown", "%1$s drowned"},
        {"death.attack.drown.player", "%1$s drowned while trying to escape %2$s"},
        {"death.attack.dryout", "%1$s died from dehydration"},
        {"death.attack.dryout.player", "%1$s died from dehydration while trying to escape %2$s"},
        {"death.attack.even_more_magic", "%1$s was killed by even more magic"},
        {"death.attack.explosion", "%1$s blew up"},
        {"death.attack.explosion.player", "%1$s was blown up by %2$s"},
        {"death.attack.explosion.player.item", "%1$s was blown up by %2$s using %3$s"},
        {"death.attack.fall", "%1$s hit the ground too hard"},
        {"death.attack.fall.player", "%1$s hit the ground too hard while trying to escape %2$s"},
        {"death.attack.fallingBlock", "%1$s was squashed by a falling block"},
        {"death.attack.fallingBlock.player", "%1$s was squashed by a falling block while fighting %2$s"},
        {"death.attack.fallingStalactite", "%1$s was skewered by a falling stalactite"},
        {"death.attack.fallingStalactite.player", "%1$s was skewered by a falling stalactite while fighting %2$s"},
        {"death.attack.fireball", "%1$s was fireballed by %2$s"},
        {"death.attack.fireball.item", "%1$s was fireballed by %2$s using %3$s"},
        {"death.attack.fireworks", "%1$s went off with a bang"},
        {"death.attack.fireworks.item", "%1$s went off with a bang due to a firework fired from %3$s by %2$s"},
        {"death.attack.fireworks.player", "%1$s went off with a bang while fighting %2$s"},
        {"death.attack.flyIntoWall", "%1$s experienced kinetic energy"},
        {"death.attack.flyIntoWall.player", "%1$s experienced kinetic energy while trying to escape %2$s"},
        {"death.attack.freeze", "%1$s froze to death"},
        {"death.attack.freeze.player", "%1$s was frozen to death by %2$s"},
        {"death.attack.generic", "%1$s died"},
        {"death.attack.generic.player", "%1$s died because of %2$s"},
        {"death.attack.genericKill", "%1$s was killed"},
        {"death.attack.genericKill.player", "%1$s was killed while fighting %2$s"},
        {"death.attack.hotFloor", "%1$s discovered the floor was lava"},
        {"death.attack.hotFloor.player", "%1$s walked into the danger zone due to %2$s"},
        {"death.attack.indirectMagic", "%1$s was killed by %2$s using magic"},
        {"death.attack.indirectMagic.item", "%1$s was killed by %2$s using %3$s"},
        {"death.attack.inFire", "%1$s went up in flames"},
        {"death.attack.inFire.player", "%1$s walked into fire while fighting %2$s"},
        {"death.attack.inWall", "%1$s suffocated in a wall"},
        {"death.attack.inWall.player", "%1$s suffocated in a wall while fighting %2$s"},
        {"death.attack.lava", "%1$s tried to swim in lava"},
        {"death.attack.lava.player", "%1$s tried to swim in lava to escape %2$s"},
        {"death.attack.lightningBolt", "%1$s was struck by lightning"},
        {"death.attack.lightningBolt.player", "%1$s was struck by lightning while fighting %2$s"},
        {"death.attack.mace_smash", "%1$s was smashed by %2$s"},
        {"death.attack.mace_smash.item", "%1$s was smashed by %2$s with %3$s"},
        {"death.attack.magic", "%1$s was killed by magic"},
        {"death.attack.magic.player", "%1$s was killed by magic while trying to escape %2$s"},
        // death.attack.player has the same text; which one it was (a player or a mob) is the plugin's `killer.type`.
        {"death.attack.mob", "%1$s was slain by %2$s"},
        {"death.attack.mob.item", "%1$s was slain by %2$s using %3$s"},
        {"death.attack.onFire", "%1$s burned to death"},
        {"death.attack.onFire.item", "%1$s was burned to a crisp while fighting %2$s wielding %3$s"},
        {"death.attack.onFire.player", "%1$s was burned to a crisp while fighting %2$s"},
        {"death.attack.outOfWorld", "%1$s fell out of the world"},
        {"death.attack.outOfWorld.player", "%1$s didn't want to live in the same world as %2$s"},
        {"death.attack.outsideBorder", "%1$s left the confines of this world"},
        {"death.attack.outsideBorder.player", "%1$s left the confines of this world while fighting %2$s"},
        {"death.attack.sonic_boom", "%1$s was obliterated by a sonically-charged shriek"},
        {"death.attack.sonic_boom.item", "%1$s was obliterated by a sonically-charged shriek while trying to escape %2$s wielding %3$s"},
        {"death.attack.sonic_boom.player", "%1$s was obliterated by a sonically-charged shriek while trying to escape %2$s"},
        {"death.attack.stalagmite", "%1$s was impaled on a stalagmite"},
        {"death.attack.stalagmite.player", "%1$s was impaled on a stalagmite while fighting %2$s"},
        {"death.attack.starve", "%1$s starved to death"},
        {"death.attack.starve.player", "%1$s starved to death while fighting %2$s"},
        {"death.attack.sting", "%1$s was stung to death"},
        {"death.attack.sting.item", "%1$s was stung to death by %2$s using %3$s"},
        {"death.attack.sting.player", "%1$s was stung to death by %2$s"},
        {"death.attack.sweetBerryBush", "%1$s was poked to death by a sweet berry bush"},
        {"death.attack.sweetBerryBush.player", "%1$s was poked to death by a sweet berry bush while trying to escape %2$s"},
        {"death.attack.thorns", "%1$s was killed while trying to hurt %2$s"},
        {"death.attack.thorns.item", "%1$s was killed by %3$s while trying to hurt %2$s"},
        {"death.attack.thrown", "%1$s was pummeled by %2$s"},
        {"death.attack.thrown.item", "%1$s was pummeled by %2$s using %3$s"},
        {"death.attack.trident", "%1$s was impaled by %2$s"},
        {"death.attack.trident.item", "%1$s was impaled by %2$s with %3$s"},
        {"death.attack.wither", "%1$s withered away"},
        {"death.attack.wither.player", "%1$s withered away while fighting %2$s"},
        {"death.attack.witherSkull", "%1$s was shot by a skull from %2$s"},
        {"death.attack.witherSkull.item", "%1$s was shot by a skull from %2$s using %3$s"},
        {"death.fell.accident.generic", "%1$s fell from a high place"},
        {"death.fell.accident.ladder", "%1$s fell off a ladder"},
        {"death.fell.accident.other_climbable", "%1$s fell while climbing"},
        {"death.fell.accident.scaffolding", "%1$s fell off scaffolding"},
        {"death.fell.accident.twisting_vines", "%1$s fell off some twisting vines"},
        {"death.fell.accident.vines", "%1$s fell off some vines"},
        {"death.fell.accident.weeping_vines", "%1$s fell off some weeping vines"},
        {"death.fell.assist", "%1$s was doomed to fall by %2$s"},
        {"death.fell.assist.item", "%1$s was doomed to fall by %2$s using %3$s"},
        {"death.fell.finish", "%1$s fell too far and was finished by %2$s"},
        {"death.fell.finish.item", "%1$s fell too far and was finished by %2$s using %3$s"},
        {"death.fell.killer", "%1$s was doomed to fall"},
    };

    /** A player's name as the console prints it (Java names; Bedrock players through Floodgate get a `.` or `*` prefix). */
    static final String VICTIM = "([.*]?[A-Za-z0-9_]{1,16})";
    private static final String KILLER = "(.+?)";
    private static final String ITEM = "\\[(.+?)\\]";

    /** One death message as read from a line. */
    public record Death(String key, String victim, String killer, String item) {
    }

    private record Format(String key, Pattern pattern, int fixedLength, int killerGroup, int itemGroup) {
    }

    private static final List<Format> COMPILED = compile();

    private DeathMessages() {
    }

    private static List<Format> compile() {
        List<Format> out = new ArrayList<>();
        for (String[] format : FORMATS) {
            String text = format[1];
            StringBuilder regex = new StringBuilder("^");
            int fixed = 0;
            int group = 0;
            int killerGroup = -1;
            int itemGroup = -1;
            int at = 0;
            while (at < text.length()) {
                int next = text.indexOf("%", at);
                if (next < 0) next = text.length();
                if (next > at) {
                    regex.append(Pattern.quote(text.substring(at, next)));
                    fixed += next - at;
                }
                if (next >= text.length()) break;
                char which = text.charAt(next + 1);
                group++;
                if (which == '1') {
                    regex.append(VICTIM);
                } else if (which == '2') {
                    regex.append(KILLER);
                    killerGroup = group;
                } else {
                    regex.append(ITEM);
                    itemGroup = group;
                }
                at = next + 4;
            }
            regex.append('$');
            out.add(new Format(format[0], Pattern.compile(regex.toString()), fixed, killerGroup, itemGroup));
        }
        return List.copyOf(out);
    }

    /** The death a line announces, or null. */
    public static Death match(String line) {
        Format best = null;
        Matcher bestMatch = null;
        for (Format format : COMPILED) {
            if (best != null && format.fixedLength <= best.fixedLength) continue;
            Matcher m = format.pattern.matcher(line);
            if (m.matches()) {
                best = format;
                bestMatch = m;
            }
        }
        if (best == null) return null;
        String killer = best.killerGroup > 0 ? bestMatch.group(best.killerGroup) : null;
        String item = best.itemGroup > 0 ? bestMatch.group(best.itemGroup) : null;
        return new Death(best.key, bestMatch.group(1), killer, item);
    }
}
