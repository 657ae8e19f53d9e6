package org.snowkey.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The table name is spliced into SQL, so anything but a plain identifier is refused. */
class JdbcTableNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"snowkey_worker_lease", "Lease2", "_t", "ops.snowkey_worker_lease", "a23456789012345678901234567890123456789012345678901234567890123"})
    void acceptsPlainIdentifiers(final String name) {
        assertEquals(name, new JdbcTableName(name).value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "lease; DROP TABLE users", "lease--", "lease/*", "'lease'", "\"lease\"", "`lease`", "lease name", "1lease",
            "le-ase", "a.b.c", ".lease", "lease.", "léase", "a234567890123456789012345678901234567890123456789012345678901234"})
    void refusesAnythingElse(final String name) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> new JdbcTableName(name));
        assertTrue(error.getMessage().contains("letters, digits and underscores"), error.getMessage());
    }

    @org.junit.jupiter.api.Test
    void refusesNull() {
        assertThrows(IllegalArgumentException.class, () -> new JdbcTableName(null));
    }
}
