package dev.skald.minecraft;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Logging threads hitting one appender at once, as a server's tick, chunk and plugin threads do: every
 * thread is started and waits at one latch, then all run their lines together; returns once all are done.
 */
public final class ThreadsAtOnce {
    /** One line of thread `thread`, its `line`-th. */
    public interface Line {
        void log(int thread, int line);
    }

    private ThreadsAtOnce() {}

    /** `threads` threads log `perThread` lines each; a thread is named `namePrefix` + its number, or as Java names it when the prefix is null. */
    public static void run(int threads, int perThread, String namePrefix, Line line) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> loggers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Runnable body = () -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) line.log(id, i);
            };
            Thread thread = namePrefix == null ? new Thread(body) : new Thread(body, namePrefix + t);
            thread.start();
            loggers.add(thread);
        }
        go.countDown();
        for (Thread thread : loggers) thread.join();
    }
}
