package org.snowkey.segment.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/** An allocator that fails to open over a client or pool just made: the client is closed, and the open's failure is what surfaces. */
class StoreSegmentAllocatorProviderTest {

    @Test
    void aFailedOpenClosesTheClientAndReportsTheOpenFailure() {
        IllegalStateException openFailure = new IllegalStateException("the allocator could not open");
        AtomicBoolean closed = new AtomicBoolean();
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> StoreSegmentAllocatorProvider.openOn("client", () -> closed.set(true), client -> {
                    throw openFailure;
                }));
        assertSame(openFailure, thrown);
        assertTrue(closed.get(), "the client made for the allocator is closed");
    }

    @Test
    void aCloseThatAlsoFailsRidesAlongWithTheOpenFailure() {
        IllegalStateException openFailure = new IllegalStateException("the allocator could not open");
        IllegalArgumentException closeFailure = new IllegalArgumentException("the client could not close");
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> StoreSegmentAllocatorProvider.openOn("client", () -> {
                    throw closeFailure;
                }, client -> {
                    throw openFailure;
                }));
        assertSame(openFailure, thrown, "the open's failure is what the user sees");
        assertArrayEquals(new Throwable[] {closeFailure}, thrown.getSuppressed());
    }
}
