package org.snowkey.examples.springboot;

/**
 * One order.
 *
 * @param orderId the SnowKey id ShardingSphere generated on INSERT
 * @param userId routes the order to a database (user_id % 2)
 * @param item what was ordered
 */
public record Order(long orderId, long userId, String item) {
}
