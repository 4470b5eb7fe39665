package org.bukkit.configuration.file;

/** Stub of Paper's FileConfiguration (a MemorySection there): the getters the Skald plugin calls (compile-time only). */
public abstract class FileConfiguration {
    public String getString(String path) {
        throw new UnsupportedOperationException("stub");
    }

    public boolean getBoolean(String path) {
        throw new UnsupportedOperationException("stub");
    }

    public int getInt(String path) {
        throw new UnsupportedOperationException("stub");
    }
}
