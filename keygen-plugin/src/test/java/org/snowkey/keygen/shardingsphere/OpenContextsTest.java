package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Which contexts a 5.5.0 close, naming only the logical database, releases: never a live one for the close of another,
 * nor for a second close of the same data source; each one once, when its own context has closed.
 */
class OpenContextsTest {

    private final List<Object> released = new ArrayList<>();

    private final OpenContexts contexts = new OpenContexts(released::add);

    @Test
    void theOnlyContextOfANameIsReleasedAtItsCloseAndASecondCloseReleasesNothing() {
        Object owner = new Object();
        Object context = new Object();
        contexts.opened("single_db", context, owner, new Signal());
        contexts.closing("other_db");
        assertEquals(List.of(), released, "another database's close releases nothing");
        contexts.closing("single_db");
        contexts.closing("single_db");
        assertEquals(List.of(owner), released, "released once");
    }

    @Test
    void closingOneDataSourceTwiceNeverReleasesAnotherLiveOneOfTheSameName() {
        Object firstOwner = new Object();
        Object secondOwner = new Object();
        Signal first = new Signal();
        Signal second = new Signal();
        Object firstContext = new Object();
        Object secondContext = new Object();
        contexts.opened("twin_db", firstContext, firstOwner, first);
        contexts.opened("twin_db", secondContext, secondOwner, second);

        contexts.closing("twin_db");
        first.close();
        assertEquals(List.of(firstOwner), released, "the first closed: its own context, and only it, is released");
        contexts.closing("twin_db");
        assertEquals(List.of(firstOwner), released, "a second close of the first must not release the second, still open");

        contexts.closing("twin_db");
        second.close();
        assertEquals(List.of(firstOwner, secondOwner), released, "the second is released when its own context has closed");
    }

    @Test
    void aDataSourceWithoutSnowKeyKeyGeneratorsIsOneOfTheContextsOfItsName() {
        Object owner = new Object();
        Signal plain = new Signal();
        Signal snowKey = new Signal();
        Object plainContext = new Object();
        Object snowKeyContext = new Object();
        contexts.opened("shared_db", snowKeyContext, owner, snowKey);
        contexts.opened("shared_db", plainContext, null, plain);
        contexts.closing("shared_db");
        plain.close();
        assertEquals(List.of(), released, "the plain data source closed; the SnowKey one still issues on its lease");
        contexts.closing("shared_db");
        snowKey.close();
        assertEquals(List.of(owner), released);
    }

    /** A context whose close the test decides. */
    private static final class Signal implements OpenContexts.ClosedSignal {

        private final List<Runnable> actions = new ArrayList<>();

        private boolean closed;

        @Override
        public void whenClosed(final Runnable action) {
            if (closed) {
                action.run();
            } else {
                actions.add(action);
            }
        }

        void close() {
            closed = true;
            actions.forEach(Runnable::run);
        }
    }
}
