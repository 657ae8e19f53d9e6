package org.snowkey.keygen.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;

/** The rules both planners apply to their backends alike; each backend here is just the set of props it reads. */
class StoreCatalogueTest {

    private static final Set<String> ALPHA = Set.of("alpha-url", "shared-pool");

    private static final Set<String> BETA = Set.of("beta-url", "shared-pool");

    private static StoreCatalogue<Set<String>> catalogue(final Map<String, Set<String>> backends) {
        return new StoreCatalogue<>(backends, Function.identity(), "test backend");
    }

    @Test
    void aBackendIsFoundWhateverTheCaseAndMessagesListThemInNameOrder() {
        StoreCatalogue<Set<String>> catalogue = catalogue(Map.of("Beta", BETA, "alpha", ALPHA));
        assertEquals(List.of("alpha", "beta"), List.copyOf(catalogue.names()));
        assertSame(BETA, catalogue.get("BETA"));
        assertSame(ALPHA, catalogue.require("test-registry", "Alpha", () -> "never asked"));
        InvalidSettingException unknown = assertThrows(InvalidSettingException.class, () -> catalogue.require("test-registry", "gamma", () -> "no such backend"));
        assertEquals("test-registry", unknown.property());
        assertEquals("no such backend", unknown.allowed());
        assertEquals("available: [alpha, beta]", catalogue.whyAbsent("gamma"));
    }

    @Test
    void aStoreSnowKeyShipsButThatIsAbsentIsNamedWithItsArtifact() {
        StoreCatalogue<Set<String>> withoutJdbc = catalogue(Map.of("alpha", ALPHA));
        InvalidSettingException prop = assertThrows(InvalidSettingException.class, () -> withoutJdbc.rejectIfOfAbsentStore("jdbc-url", "jdbc:h2:mem:x"));
        assertEquals("jdbc-url", prop.property());
        assertEquals(KnownStore.JDBC.notOnClassPath(), prop.allowed());
        InvalidSettingException named = assertThrows(InvalidSettingException.class, () -> withoutJdbc.require("test-registry", "JDBC", () -> "no such backend"));
        assertEquals(KnownStore.JDBC.notOnClassPath(), named.allowed());
        assertEquals(KnownStore.ZOOKEEPER.notOnClassPath(), withoutJdbc.whyAbsent("zookeeper"));
        assertDoesNotThrow(() -> withoutJdbc.rejectIfOfAbsentStore("alpha-url", "x"));
        assertDoesNotThrow(() -> catalogue(Map.of("jdbc", Set.of("jdbc-url"))).rejectIfOfAbsentStore("jdbc-url", "jdbc:h2:mem:x"));
    }

    @Test
    void aPropBelongsToTheFirstBackendByNameThatReadsIt() {
        StoreCatalogue<Set<String>> catalogue = catalogue(Map.of("beta", BETA, "alpha", ALPHA));
        assertEquals(Optional.of("alpha"), catalogue.owner("shared-pool"));
        assertEquals(Optional.of("beta"), catalogue.owner("beta-url"));
        assertEquals(Optional.empty(), catalogue.owner("gamma-url"));
        assertEquals(Set.of("alpha-url", "beta-url", "shared-pool"), catalogue.allPropertyNames());
        InvalidSettingException ex = catalogue.cannotApply("beta-url", "x", "beta", "test-registry = 'alpha'");
        assertEquals("beta-url", ex.property());
        assertEquals("cannot apply: it configures the beta test backend, and test-registry = 'alpha'; remove beta-url", ex.allowed());
    }
}
