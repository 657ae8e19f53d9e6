package org.apache.shardingsphere.infra.instance;

/**
 * SnowKey's stand-in for ShardingSphere's interface of this name, declared with the same single method; shipped
 * in snowkey-keygen-plugin so that SnowKey's key generators, which implement it, load on ShardingSphere 5.5.0 too.
 *
 * <p>Why a stand-in (docs/design.md, "ShardingSphere lines"): ShardingSphere hands its instance context to a key
 * generator only if the generator's class implements this interface (5.5.1 and 5.5.2; 5.5.0 names it
 * {@code InstanceContextAware}), and ShardingSphere instantiates the class named in the services file, so that
 * class must implement it. On 5.5.0 the interface did not exist and loading SnowKey's class failed, which made
 * ShardingSphere's {@code ServiceLoader} fail the whole start-up. 5.5.0 never refers to this interface; it hands the
 * context to SnowKey through {@code ContextLifecycleListener} instead.
 *
 * <p>On 5.5.1 and 5.5.2 ShardingSphere's own copy is on the class path as well and whichever comes first is loaded:
 * both declare exactly this method, which {@code StandInInterfaceTest} (5.5.2) and every line's {@code LineContract}
 * check against ShardingSphere's jar. Never add anything here.
 */
public interface ComputeNodeInstanceContextAware {

    /** Called by ShardingSphere 5.5.1 and later on each key generator of a sharding rule it builds. */
    void setComputeNodeInstanceContext(ComputeNodeInstanceContext computeNodeInstanceContext);
}
