export {
  type BusServiceConfig,
  type BusServiceContext,
  type BusServiceOptions,
  type BusServiceParts,
  startBusService,
} from './start-bus-service';
