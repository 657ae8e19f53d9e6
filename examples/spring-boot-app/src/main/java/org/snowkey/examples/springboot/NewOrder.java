package org.snowkey.examples.springboot;

/** The body of POST /orders: no order id, ShardingSphere asks SnowKey for one. */
public record NewOrder(long userId, String item) {
}
