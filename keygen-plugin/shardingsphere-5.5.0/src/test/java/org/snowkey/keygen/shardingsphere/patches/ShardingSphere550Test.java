package org.snowkey.keygen.shardingsphere.patches;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.testkit.LineFixture;

/**
 * ShardingSphere 5.5.0 is NOT supported, and this test pins down what a user who tries it sees (README, "ShardingSphere
 * versions"). 5.5.0 has the 5.5 key generator SPI but hands the instance context through {@code InstanceContextAware};
 * 5.5.1 renamed it {@code ComputeNodeInstanceContextAware}, which snowkey-keygen-plugin implements. ShardingSphere
 * 5.5.0 loads SnowKey's registration for its SPI and fails its start-up naming the missing interface: loud, never a
 * silent fallback, but a start-up failure even for users of ShardingSphere's own SNOWFLAKE while SnowKey's jar is on
 * the class path. Making the jar inert on 5.5.0 is open work (issue 12).
 */
class ShardingSphere550Test {

    @TempDir
    Path directory;

    @Test
    void startUpFailsNamingTheInterfaceThatFiveFiveOneIntroduced() throws Exception {
        LineFixture fixture = new LineFixture("databaseName").keyGenerator("snowkey", "IMPROVED_SNOWFLAKE", Map.of("worker-id", "3"))
                .table(LineFixture.ORDER, "snowkey");
        Path yaml = fixture.write(directory);
        Throwable failure = assertThrows(Throwable.class, () -> YamlShardingSphereDataSourceFactory.createDataSource(yaml.toFile()));
        StringBuilder chain = new StringBuilder();
        for (Throwable each = failure; each != null; each = each.getCause()) {
            chain.append(each).append(" | ");
        }
        assertTrue(chain.toString().contains("ComputeNodeInstanceContextAware"), chain.toString());
    }
}
