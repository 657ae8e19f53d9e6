package org.snowkey.keygen.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A JDBC lease registry in embedded H2 (the {@code lease-registry: jdbc} backend), and what it holds. */
public final class H2LeaseTable {

    private final String url = "jdbc:h2:mem:lease_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + ";DB_CLOSE_DELAY=-1";

    /** The key generator props that lease worker ids from this registry, in that pool. */
    public Map<String, String> props(final String pool) {
        return Map.of("lease-registry", "jdbc", "jdbc-url", url, "jdbc-username", "sa", "lease-pool", pool);
    }

    /** The worker ids held in a pool now. */
    public List<Integer> heldWorkerIds(final String pool) throws SQLException {
        List<Integer> result = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement select = connection.prepareStatement("SELECT worker_id FROM snowkey_worker_lease WHERE pool = ? AND state = 'HELD'")) {
            select.setString(1, pool);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    result.add(rows.getInt(1));
                }
            }
        }
        return result;
    }
}
