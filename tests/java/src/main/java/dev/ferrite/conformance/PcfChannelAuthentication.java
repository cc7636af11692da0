package dev.ferrite.conformance;

import static dev.ferrite.conformance.Checks.equal;
import static dev.ferrite.conformance.Checks.require;

import com.ibm.mq.MQException;
import com.ibm.mq.MQGetMessageOptions;
import com.ibm.mq.MQMessage;
import com.ibm.mq.MQQueue;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.constants.CMQCFC;
import com.ibm.mq.headers.pcf.PCFException;
import com.ibm.mq.headers.pcf.PCFMessage;
import com.ibm.mq.headers.pcf.PCFMessageAgent;
import java.util.Arrays;
import java.util.Hashtable;

/**
 * IBM's PCF classes setting and inquiring channel authentication records on a Ferrite queue
 * manager (MQCMD_SET_CHLAUTH_REC, MQCMD_INQUIRE_CHLAUTH_RECS, a string list parameter each way,
 * a fault as a PCFException), switching channel events on (MQCMD_CHANGE_Q_MGR ChannelEvent),
 * then reading the Channel Blocked event a refused connection puts, with IBM's PCFMessage parser.
 * Arguments: queue manager name, host, port, the administration channel, a SVRCONN channel
 * that the checks block for this JVM's user.
 */
public final class PcfChannelAuthentication {
    private final String qmgrName;
    private final String host;
    private final int port;
    private final String adminChannel;
    private final String blockedChannel;
    private final String user = System.getProperty("user.name");

    private PcfChannelAuthentication(String[] args) {
        qmgrName = args[0];
        host = args[1];
        port = Integer.parseInt(args[2]);
        adminChannel = args[3];
        blockedChannel = args[4];
    }

    public static void main(String[] args) throws Exception {
        System.exit(new PcfChannelAuthentication(args).run());
    }

    private Hashtable<String, Object> properties(String channel) {
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(CMQC.HOST_NAME_PROPERTY, host);
        properties.put(CMQC.PORT_PROPERTY, port);
        properties.put(CMQC.CHANNEL_PROPERTY, channel);
        properties.put(CMQC.TRANSPORT_PROPERTY, CMQC.TRANSPORT_MQSERIES_CLIENT);
        return properties;
    }

    private int run() throws Exception {
        Checks checks = new Checks();
        MQQueueManager qmgr = new MQQueueManager(qmgrName, properties(adminChannel));
        PCFMessageAgent agent = new PCFMessageAgent(qmgr);
        try {
            checks.check("SET_CHLAUTH_REC BLOCKUSER with a user list", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_SET_CHLAUTH_REC);
                request.addParameter(CMQCFC.MQCACH_CHANNEL_NAME, blockedChannel);
                request.addParameter(CMQCFC.MQIACF_CHLAUTH_TYPE, CMQCFC.MQCAUT_BLOCKUSER);
                request.addParameter(CMQCFC.MQCACH_MCA_USER_ID_LIST, new String[] {user, "nobody"});
                request.addParameter(CMQC.MQCA_CHLAUTH_DESC, "set by PCFMessageAgent");
                PCFMessage[] responses = agent.send(request);
                equal(1, responses.length, "responses");
                equal(CMQC.MQCC_OK, responses[0].getCompCode(), "completion code");
            });

            checks.check("INQUIRE_CHLAUTH_RECS answers the record", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_INQUIRE_CHLAUTH_RECS);
                request.addParameter(CMQCFC.MQCACH_CHANNEL_NAME, blockedChannel);
                PCFMessage[] responses = agent.send(request);
                equal(1, responses.length, "responses");
                PCFMessage record = responses[0];
                equal(blockedChannel,
                        record.getStringParameterValue(CMQCFC.MQCACH_CHANNEL_NAME).trim(), "profile");
                equal(CMQCFC.MQCAUT_BLOCKUSER,
                        record.getIntParameterValue(CMQCFC.MQIACF_CHLAUTH_TYPE), "type");
                String[] users = record.getStringListParameterValue(CMQCFC.MQCACH_MCA_USER_ID_LIST);
                equal(Arrays.asList(user, "nobody"),
                        Arrays.asList(Arrays.stream(users).map(String::trim).toArray()), "USERLIST");
                equal("set by PCFMessageAgent",
                        record.getStringParameterValue(CMQC.MQCA_CHLAUTH_DESC).trim(), "DESCR");
            });

            checks.check("a type Ferrite does not keep is MQRCCF_CHLAUTH_TYPE_ERROR", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_SET_CHLAUTH_REC);
                request.addParameter(CMQCFC.MQCACH_CHANNEL_NAME, blockedChannel);
                request.addParameter(CMQCFC.MQIACF_CHLAUTH_TYPE, CMQCFC.MQCAUT_QMGRMAP);
                try {
                    agent.send(request);
                    throw new AssertionError("no PCFException");
                } catch (PCFException expected) {
                    equal(CMQCFC.MQRCCF_CHLAUTH_TYPE_ERROR, expected.reasonCode, "reason");
                }
            });

            checks.check("CHANGE_Q_MGR ChannelEvent EXCEPTION", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_CHANGE_Q_MGR);
                request.addParameter(CMQC.MQIA_CHANNEL_EVENT, CMQCFC.MQEVR_EXCEPTION);
                agent.send(request);
                PCFMessage inquire = new PCFMessage(CMQCFC.MQCMD_INQUIRE_Q_MGR);
                inquire.addParameter(CMQCFC.MQIACF_Q_MGR_ATTRS, new int[] {CMQC.MQIA_CHANNEL_EVENT});
                PCFMessage[] responses = agent.send(inquire);
                equal(CMQCFC.MQEVR_EXCEPTION,
                        responses[0].getIntParameterValue(CMQC.MQIA_CHANNEL_EVENT), "CHLEV");
            });

            checks.check("the blocked channel refuses this user with MQRC_NOT_AUTHORIZED", () -> {
                try {
                    new MQQueueManager(qmgrName, properties(blockedChannel)).disconnect();
                    throw new AssertionError("the connection was accepted");
                } catch (MQException expected) {
                    equal(CMQC.MQRC_NOT_AUTHORIZED, expected.reasonCode, "reason");
                }
            });

            checks.check("the Channel Blocked event, read with PCFMessage", () -> {
                MQQueue events = qmgr.accessQueue("SYSTEM.ADMIN.CHANNEL.EVENT",
                        CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_FAIL_IF_QUIESCING);
                try {
                    MQMessage message = new MQMessage();
                    MQGetMessageOptions gmo = new MQGetMessageOptions();
                    gmo.options = CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT;
                    gmo.waitInterval = 5000;
                    events.get(message, gmo);
                    equal(CMQC.MQFMT_EVENT, message.format, "format");
                    PCFMessage event = new PCFMessage(message);
                    equal(CMQCFC.MQCFT_EVENT, event.getType(), "type");
                    equal(CMQCFC.MQCMD_CHANNEL_EVENT, event.getCommand(), "command");
                    equal(CMQC.MQRC_CHANNEL_BLOCKED, event.getReason(), "reason");
                    equal(qmgrName, event.getStringParameterValue(CMQC.MQCA_Q_MGR_NAME).trim(),
                            "QMgrName");
                    equal(CMQCFC.MQRQ_CHANNEL_BLOCKED_USERID,
                            event.getIntParameterValue(CMQCFC.MQIACF_REASON_QUALIFIER),
                            "ReasonQualifier");
                    equal(blockedChannel,
                            event.getStringParameterValue(CMQCFC.MQCACH_CHANNEL_NAME).trim(),
                            "ChannelName");
                    equal(user,
                            event.getStringParameterValue(CMQCFC.MQCACF_USER_IDENTIFIER).trim(),
                            "UserIdentifier");
                    require(!event.getStringParameterValue(CMQCFC.MQCACH_CONNECTION_NAME)
                            .trim().isEmpty(), "ConnectionName");
                } finally {
                    events.close();
                }
            });

            checks.check("SET_CHLAUTH_REC REMOVEALL, then no record", () -> {
                PCFMessage request = new PCFMessage(CMQCFC.MQCMD_SET_CHLAUTH_REC);
                request.addParameter(CMQCFC.MQCACH_CHANNEL_NAME, blockedChannel);
                request.addParameter(CMQCFC.MQIACF_CHLAUTH_TYPE, CMQCFC.MQCAUT_BLOCKUSER);
                request.addParameter(CMQCFC.MQIACF_ACTION, CMQCFC.MQACT_REMOVEALL);
                agent.send(request);
                PCFMessage inquire = new PCFMessage(CMQCFC.MQCMD_INQUIRE_CHLAUTH_RECS);
                inquire.addParameter(CMQCFC.MQCACH_CHANNEL_NAME, blockedChannel);
                try {
                    agent.send(inquire);
                    throw new AssertionError("no PCFException");
                } catch (PCFException expected) {
                    equal(CMQCFC.MQRCCF_CHLAUTH_NOT_FOUND, expected.reasonCode, "reason");
                }
            });
        } finally {
            agent.disconnect();
            qmgr.disconnect();
        }
        return checks.finish();
    }
}
