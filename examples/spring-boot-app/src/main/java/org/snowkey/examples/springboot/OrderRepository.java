package org.snowkey.examples.springboot;

import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;

/** Plain JDBC through ShardingSphere: the logic table t_order, the key from the IMPROVED_SNOWFLAKE key generator. */
@Repository
public class OrderRepository {

    private final JdbcTemplate jdbc;

    public OrderRepository(final JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Order insert(final NewOrder order) {
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        jdbc.update(connection -> {
            PreparedStatement insert = connection.prepareStatement("INSERT INTO t_order (user_id, item) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS);
            insert.setLong(1, order.userId());
            insert.setString(2, order.item());
            return insert;
        }, keys);
        return new Order(keys.getKeyAs(Long.class), order.userId(), order.item());
    }

    public List<Order> findAll() {
        return jdbc.query("SELECT order_id, user_id, item FROM t_order ORDER BY order_id",
                (row, index) -> new Order(row.getLong("order_id"), row.getLong("user_id"), row.getString("item")));
    }
}
