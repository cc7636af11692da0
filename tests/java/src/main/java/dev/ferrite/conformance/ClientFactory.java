package dev.ferrite.conformance;

import com.ibm.mq.jms.MQConnectionFactory;
import com.ibm.msg.client.wmq.WMQConstants;

/** The JMS connection factory of a conformance program's first arguments. */
final class ClientFactory {
    private ClientFactory() {}

    /** Client transport to queue manager args[0] at host args[1], port args[2], channel args[3]. */
    static MQConnectionFactory fromArguments(String[] args) throws Exception {
        MQConnectionFactory factory = new MQConnectionFactory();
        factory.setQueueManager(args[0]);
        factory.setHostName(args[1]);
        factory.setPort(Integer.parseInt(args[2]));
        factory.setChannel(args[3]);
        factory.setTransportType(WMQConstants.WMQ_CM_CLIENT);
        return factory;
    }
}
