package org.snowkey.spring.autoconfigure;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/** Reads lease records straight from ZooKeeper, as an operator would. */
final class ZooKeeperLeases {

    private ZooKeeperLeases() {
    }

    /** The record of {@code /snowkey/snowkey/<pool>/workers/<workerId>} (default namespace). */
    static JsonNode read(final String connectString, final String pool, final int workerId) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100))) {
            client.start();
            byte[] data = client.getData().forPath("/snowkey/snowkey/" + pool + "/workers/" + workerId);
            return new ObjectMapper().readTree(new String(data, StandardCharsets.UTF_8));
        }
    }
}
