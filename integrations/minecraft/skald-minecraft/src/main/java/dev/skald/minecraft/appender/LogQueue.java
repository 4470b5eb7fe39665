package dev.skald.minecraft.appender;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The logs waiting to be sent: bounded, and never making a logging thread wait for the network. A full queue
 * drops its OLDEST log to take the new one: during a long outage the latest logs (what led up to now) are
 * the ones an admin reads first, and the count of dropped logs is reported (status log and a Skald log once
 * sending works again). The lock is held only to add or take, never across I/O.
 */
final class LogQueue {
    private record Queued(LogEntry entry, long queuedAtNanos) {
    }

    private final ArrayDeque<Queued> entries = new ArrayDeque<>();
    private final int capacity;
    private final int batchSize;
    private final long flushIntervalNanos;
    private long dropped;
    private long droppedTotal;
    private boolean closing;

    LogQueue(int capacity, int batchSize, long flushIntervalMillis) {
        this.capacity = capacity;
        this.batchSize = batchSize;
        this.flushIntervalNanos = flushIntervalMillis * 1_000_000L;
    }

    /** Adds a log; on a full queue the oldest goes. Wakes the sender when a batch is full. */
    synchronized void add(LogEntry entry) {
        if (entries.size() >= capacity) {
            entries.pollFirst();
            dropped++;
            droppedTotal++;
        }
        entries.addLast(new Queued(entry, System.nanoTime()));
        // The sender waits for the first log (to start the interval) and for a full batch.
        if (entries.size() == 1 || entries.size() == batchSize) notifyAll();
    }

    /**
     * The next batch: waits until `batchSize` logs wait, the oldest has waited the flush interval, or the
     * queue is closing (then whatever waits, at once). Empty only when closing and nothing waits.
     */
    synchronized List<LogEntry> takeBatch() throws InterruptedException {
        while (true) {
            if (entries.size() >= batchSize || (closing && !entries.isEmpty())) return take();
            if (closing) return List.of();
            if (entries.isEmpty()) {
                wait();
                continue;
            }
            long waited = System.nanoTime() - entries.peekFirst().queuedAtNanos;
            if (waited >= flushIntervalNanos) return take();
            long remainingNanos = flushIntervalNanos - waited;
            wait(Math.max(1, remainingNanos / 1_000_000L), (int) (remainingNanos % 1_000_000L));
        }
    }

    private List<LogEntry> take() {
        int n = Math.min(batchSize, entries.size());
        List<LogEntry> batch = new ArrayList<>(n);
        for (int i = 0; i < n; i++) batch.add(entries.pollFirst().entry);
        return batch;
    }

    /** Waits up to `millis` or until the queue closes; true when it closed. */
    synchronized boolean sleep(long millis) throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000L;
        while (!closing) {
            long left = until - System.nanoTime();
            if (left <= 0) return false;
            wait(Math.max(1, left / 1_000_000L));
        }
        return true;
    }

    synchronized void close() {
        closing = true;
        notifyAll();
    }

    synchronized boolean isClosing() {
        return closing;
    }

    synchronized int size() {
        return entries.size();
    }

    /** Logs dropped for room since the last call. */
    synchronized long takeDropped() {
        long n = dropped;
        dropped = 0;
        return n;
    }

    /** Logs dropped for room since the queue was made. */
    synchronized long droppedTotal() {
        return droppedTotal;
    }
}
