package dev.skald.minecraft.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class DeathMessagesTest {
    /** Every format of the game, filled in as the console prints it, reads back as its own key. */
    @Test
    void everyFormatReadsAsItsKey() {
        for (String[] format : DeathMessages.FORMATS) {
            String line = format[1].replace("%1$s", "Steve").replace("%2$s", "Zombie Villager").replace("%3$s", "[Sharp Stick]");
            DeathMessages.Death death = DeathMessages.match(line);
            assertNotNull(death, line);
            assertEquals(format[0], death.key(), line);
            assertEquals("Steve", death.victim(), line);
            if (format[1].contains("%2$s")) assertEquals("Zombie Villager", death.killer(), line);
            if (format[1].contains("%3$s")) assertEquals("Sharp Stick", death.item(), line);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Steve was killed by magic|death.attack.magic|",
        "Steve was killed by Witch using magic|death.attack.indirectMagic|Witch",
        "Steve was killed by magic while trying to escape Evoker|death.attack.magic.player|Evoker",
        "Steve was killed by [Intentional Game Design]|death.attack.badRespawnPoint.message|",
        "Steve was killed by [Thorns Chestplate] while trying to hurt Guardian|death.attack.thorns.item|Guardian",
        "Steve went off with a bang due to a firework fired from [Rocket] by Alex|death.attack.fireworks.item|Alex",
        "Steve was slain by Bob the Zombie|death.attack.mob|Bob the Zombie",
        ".BedrockSam drowned|death.attack.drown|",
        "Steve fell off a ladder|death.fell.accident.ladder|",
    })
    void ambiguousLinesReadAsTheRightFormat(String line, String key, String killer) {
        DeathMessages.Death death = DeathMessages.match(line);
        assertNotNull(death, line);
        assertEquals(key, death.key());
        assertEquals(killer, death.killer());
    }

    @Test
    void otherLinesAreNoDeath() {
        assertNull(DeathMessages.match("Steve joined the game"));
        assertNull(DeathMessages.match("<Steve> I died"));
        assertNull(DeathMessages.match("Preparing spawn area: 83%"));
    }
}
