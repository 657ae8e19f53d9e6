package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class JvmShutdownTest {

    /** The snowflake's close failing with an Error (a class that no longer loads while the JVM stops) must not keep the segment scopes open. */
    @Test
    void aCloseThatFailsDoesNotStopTheOthers() {
        List<String> ran = new CopyOnWriteArrayList<>();
        JvmShutdown.runEach(List.of(
                () -> {
                    ran.add("snowflake");
                    throw new NoClassDefFoundError("org/snowkey/Gone (test)");
                },
                () -> {
                    ran.add("segment");
                    throw new IllegalStateException("the allocator's pool would not close (test)");
                },
                () -> ran.add("third")));
        assertEquals(List.of("snowflake", "segment", "third"), ran);
    }

    /**
     * A hook the JVM refused (it was already stopping) is not taken as added: the next registration adds it, and it
     * runs only the closes whose registration succeeded (a refused one is registered again by its runtime's next open).
     */
    @Test
    void aHookTheJvmRefusedIsAddedByTheNextRegistration() {
        AtomicInteger attempts = new AtomicInteger();
        List<Thread> added = new ArrayList<>();
        JvmShutdown shutdown = new JvmShutdown(hook -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("Shutdown in progress (test)");
            }
            added.add(hook);
        });
        List<String> ran = new CopyOnWriteArrayList<>();
        assertThrows(IllegalStateException.class, () -> shutdown.add(() -> ran.add("refused")));
        shutdown.add(() -> ran.add("snowflake"));
        shutdown.add(() -> ran.add("segment"));

        assertEquals(1, added.size(), "one hook, added by the registration after the refused one");
        added.get(0).run();
        assertEquals(List.of("snowflake", "segment"), ran);
    }
}
