package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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
}
